import { useId, useState } from 'react';
import type { RequestSummary } from '@outlay/contracts/requests';
import { DataTableFilterSelect, type ListQueryResult } from '@/components/data-table';
import { useCategoryOptions } from '@/features/categories';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** A text filter written to the list on blur or Enter (dates on change). */
export function FilterInput({
  query,
  name,
  label,
  type = 'text',
  placeholder,
}: {
  query: ListQueryResult<RequestSummary>;
  name: string;
  label: string;
  type?: 'text' | 'date';
  placeholder?: string;
}) {
  const id = useId();
  const current = query.state.filters[name] ?? '';
  const [text, setText] = useState(current);
  // A filter changed elsewhere (Clear filters, back button) replaces what is typed here.
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    setText(current);
  }
  const commit = (value: string) => {
    const v = value.trim().replace(/,/g, '');
    if (v !== current) query.setters.setFilter(name, v || undefined);
  };
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Input
        id={id}
        type={type}
        inputMode={type === 'text' ? 'decimal' : undefined}
        placeholder={placeholder}
        value={text}
        className="h-10 w-full sm:w-40"
        onChange={(event) => {
          setText(event.target.value);
          if (type === 'date') commit(event.target.value);
        }}
        onBlur={() => commit(text)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(text);
        }}
      />
    </div>
  );
}

/** The creation date range and the amount range (in `currency`, the amount the list shows) of a request list. */
export function DateAmountFilters({
  query,
  currency,
}: {
  query: ListQueryResult<RequestSummary>;
  currency: string | undefined;
}) {
  const unit = currency ? ` (${currency})` : '';
  return (
    <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-end">
      <FilterInput query={query} name="from" label="Created from" type="date" />
      <FilterInput query={query} name="to" label="Created to" type="date" />
      <FilterInput query={query} name="minAmount" label={`Min amount${unit}`} placeholder="0.00" />
      <FilterInput query={query} name="maxAmount" label={`Max amount${unit}`} placeholder="0.00" />
    </div>
  );
}

/** The category filter of a request list, over the categories the caller may choose from. */
export function CategoryFilter({ query }: { query: ListQueryResult<RequestSummary> }) {
  const categories = useCategoryOptions();
  return (
    <DataTableFilterSelect
      query={query}
      name="categoryId"
      label="Category"
      allLabel="All categories"
      options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}
