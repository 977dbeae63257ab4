import { useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import type { CreateRequestForm } from '@outlay/contracts/requests';
import { Combobox } from '@/components/combobox';
import { FormField } from '@/components/form';
import { Badge } from '@/components/ui/badge';
import { useVendorOptions } from '../api/list-vendor-options';

/**
 * The optional vendor: a searchable combobox over `vendor-options?q`. Blocked vendors are listed
 * but cannot be chosen.
 */
export function VendorCombobox({ initialName }: { initialName?: string | null }) {
  const form = useFormContext<CreateRequestForm>();
  // null until the list first opens, so nothing is fetched for a form that never uses it.
  const [search, setSearch] = useState<string | null>(null);
  const vendors = useVendorOptions(search ?? '', search !== null);
  const items = vendors.data?.items ?? [];
  const error = form.formState.errors.vendorId?.message;

  return (
    <Controller
      control={form.control}
      name="vendorId"
      render={({ field }) => (
        <FormField
          label="Vendor"
          hint="Optional. Type to search your organization's vendors."
          error={typeof error === 'string' ? error : undefined}
        >
          {(control) => (
            <Combobox
              {...control}
              inputRef={field.ref}
              onBlur={field.onBlur}
              value={field.value ?? null}
              valueLabel={initialName}
              onChange={(item) => field.onChange(item?.id ?? null)}
              items={items}
              onSearch={setSearch}
              itemLabel={(item) => item.name}
              isDisabled={(item) => item.blocked}
              renderItem={(item) => (
                <span className="flex min-w-0 flex-1 items-center justify-between gap-2">
                  <span className="flex items-center gap-2">
                    {item.name}
                    <span className="text-xs text-muted-foreground">{item.currency}</span>
                  </span>
                  {item.blocked && <Badge variant="danger">Blocked</Badge>}
                </span>
              )}
              emptyText={(text) =>
                vendors.isLoading || search === null ? (
                  'Searching…'
                ) : vendors.isError ? (
                  <span className="text-destructive">Vendors could not be loaded.</span>
                ) : (
                  `No vendor matches “${text}”.`
                )
              }
              listLabel="Vendors"
              placeholder="Search vendors…"
              clearLabel={() => 'Clear vendor'}
            />
          )}
        </FormField>
      )}
    />
  );
}
