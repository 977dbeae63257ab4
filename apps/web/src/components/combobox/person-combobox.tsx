import { Combobox, type ComboboxProps } from './combobox';

export interface PersonOption {
  id: string;
  name: string;
  /** Second line, e.g. "Manager · Meridian Logistics". */
  detail?: string | null;
}

export type PersonComboboxProps = Omit<
  ComboboxProps<PersonOption>,
  'onChange' | 'items' | 'onSearch' | 'itemLabel' | 'renderItem' | 'emptyText' | 'listLabel'
> & {
  onChange: (id: string | null, option: PersonOption | null) => void;
  /** The options for the current search text (the caller fetches them). */
  options: readonly PersonOption[];
  /** Called as the person types; the caller searches with it. */
  onQueryChange: (q: string) => void;
  loading?: boolean;
  /** Shown in the list when the search failed (e.g. the caller may not list people). */
  error?: string | null;
};

/** A searchable person picker; the options come from the caller (server search). */
export function PersonCombobox({
  onChange,
  options,
  onQueryChange,
  loading = false,
  error = null,
  placeholder = 'Search people…',
  ...props
}: PersonComboboxProps) {
  return (
    <Combobox<PersonOption>
      {...props}
      placeholder={placeholder}
      items={options}
      onSearch={onQueryChange}
      onChange={(option) => onChange(option?.id ?? null, option)}
      itemLabel={(option) => option.name}
      renderItem={(option) => (
        <span className="flex min-w-0 flex-col">
          <span className="truncate font-medium">{option.name}</span>
          {option.detail && <span className="truncate text-xs text-muted-foreground">{option.detail}</span>}
        </span>
      )}
      emptyText={() => error ?? (loading ? 'Searching…' : 'Nobody found')}
      listLabel="People"
    />
  );
}
