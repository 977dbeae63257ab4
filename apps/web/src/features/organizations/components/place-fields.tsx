import { useMemo, useState } from 'react';
import { Controller, useFormContext, type FieldValues, type Path } from 'react-hook-form';
import { COUNTRY_CODES } from '@outlay/contracts/countries';
import { Combobox } from '@/components/combobox';
import { fieldErrorMessage, FormField } from '@/components/form';

interface Option {
  id: string;
  name: string;
}

/** Every zone the browser knows (IANA names), UTC first. */
function allZones(): Option[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')].map((z) => ({ id: z, name: z.replace(/_/g, ' ') }));
}

/** The countries by their code, named in the reader's language, sorted by name. */
function allCountries(): Option[] {
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
  return COUNTRY_CODES.map((code) => ({ id: code, name: names?.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}

/** Folds accents and case, so "cote" finds Côte d’Ivoire and "sao paulo" America/Sao_Paulo. */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .trim();

/** A searchable pick of one option, bound to a form field holding its id. */
function SearchField<T extends FieldValues>({
  name,
  label,
  hint,
  options,
  listLabel,
  placeholder,
  emptyText,
  clearable,
}: {
  name: Path<T>;
  label: string;
  hint?: string;
  options: Option[];
  listLabel: string;
  placeholder: string;
  emptyText: (text: string) => string;
  clearable: boolean;
}) {
  const form = useFormContext<T>();
  const [search, setSearch] = useState('');
  const items = useMemo(() => {
    const q = fold(search);
    return options.filter((o) => !q || fold(`${o.name} ${o.id}`).includes(q)).slice(0, 50);
  }, [search, options]);
  const error = fieldErrorMessage(form.formState.errors, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const value = typeof field.value === 'string' && field.value !== '' ? field.value : null;
        return (
          <FormField label={label} hint={hint} error={error}>
            {(control) => (
              <Combobox
                {...control}
                value={value}
                valueLabel={value ? (options.find((o) => o.id === value)?.name ?? value) : null}
                onChange={(item) => field.onChange(item?.id ?? null)}
                onBlur={field.onBlur}
                items={items}
                onSearch={setSearch}
                itemLabel={(item) => item.name}
                emptyText={emptyText}
                listLabel={listLabel}
                placeholder={placeholder}
                clearable={clearable}
                clearLabel={(chosen) => `Clear ${label.toLowerCase()} ${chosen}`}
              />
            )}
          </FormField>
        );
      }}
    />
  );
}

/** The organization's time zone: its people's schedules run in it unless they chose their own. */
export function FormFieldTimeZone<T extends FieldValues>({ name, hint }: { name: Path<T>; hint?: string }) {
  const zones = useMemo(() => allZones(), []);
  return (
    <SearchField<T>
      name={name}
      label="Time zone"
      hint={hint}
      options={zones}
      listLabel="Time zones"
      placeholder="Search, e.g. Berlin"
      emptyText={(text) => `No time zone matches “${text}”.`}
      clearable={false}
    />
  );
}

/** The organization's country (ISO code saved, its name shown): its weekend and public holidays move pay and due dates. */
export function FormFieldCountry<T extends FieldValues>({ name }: { name: Path<T> }) {
  const countries = useMemo(() => allCountries(), []);
  return (
    <SearchField<T>
      name={name}
      label="Country"
      hint="Its weekend and public holidays move pay and due dates to the next business day."
      options={countries}
      listLabel="Countries"
      placeholder="Search, e.g. Germany"
      emptyText={(text) => `No country matches “${text}”.`}
      clearable
    />
  );
}
