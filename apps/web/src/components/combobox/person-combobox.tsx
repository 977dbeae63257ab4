import { Check, ChevronsUpDown, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@/lib/utils';

export interface PersonOption {
  id: string;
  name: string;
  /** Second line, e.g. "Manager · Meridian Logistics". */
  detail?: string | null;
}

export interface PersonComboboxProps {
  /** The chosen person's id, or null. */
  value: string | null;
  /** How to show the chosen person when they are not among the current options (e.g. a saved value). */
  valueLabel?: string | null;
  onChange: (id: string | null, option: PersonOption | null) => void;
  /** The options for the current search text (the caller fetches them). */
  options: readonly PersonOption[];
  /** Called as the person types; the caller searches with it. */
  onQueryChange: (q: string) => void;
  loading?: boolean;
  /** Shown in the list when the search failed (e.g. the caller may not list people). */
  error?: string | null;
  placeholder?: string;
  disabled?: boolean;
  /** Offer a "clear" button (default true). */
  clearable?: boolean;
  className?: string;
  /** Wiring from FormField: id, aria-invalid, aria-describedby. */
  id?: string;
  'aria-invalid'?: true | undefined;
  'aria-describedby'?: string | undefined;
  'aria-label'?: string;
  'aria-required'?: boolean;
}

/**
 * A searchable person picker following the ARIA combobox pattern: type to search, arrows to
 * move, Enter to choose, Escape to close. The options come from the caller (server search).
 */
export function PersonCombobox({
  value,
  valueLabel,
  onChange,
  options,
  onQueryChange,
  loading = false,
  error = null,
  placeholder = 'Search people…',
  disabled,
  clearable = true,
  className,
  ...aria
}: PersonComboboxProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<PersonOption | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const selectedName = value ? (chosen?.id === value ? chosen.name : (options.find((o) => o.id === value)?.name ?? valueLabel ?? '')) : '';

  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => onQueryChange(text), 200);
    return () => clearTimeout(timer);
  }, [text, open, onQueryChange]);

  const choose = (option: PersonOption | null) => {
    setChosen(option);
    onChange(option?.id ?? null, option);
    setOpen(false);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(options.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter') {
      if (open && options[active]) {
        event.preventDefault();
        choose(options[active]);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setText('');
      }
    }
  };

  const activeId = open && options[active] ? `${listId}-${options[active].id}` : undefined;

  return (
    <div className={cn('relative', className)}>
      <div className="relative">
        <input
          ref={inputRef}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          autoComplete="off"
          disabled={disabled}
          placeholder={selectedName || placeholder}
          value={open ? text : selectedName}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            if (!open) setOpen(true);
          }}
          onClick={() => setOpen(true)}
          onBlur={() => {
            // Let a click on an option land first.
            setTimeout(() => {
              setOpen(false);
              setText('');
            }, 150);
          }}
          onKeyDown={onKeyDown}
          className="flex h-10 w-full rounded-md border border-input bg-card py-2 pl-3 pr-16 text-sm text-foreground shadow-xs placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-destructive"
          {...aria}
        />
        <div className="absolute inset-y-0 right-2 flex items-center gap-1">
          {clearable && value && !disabled && (
            <button
              type="button"
              className="rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground"
              aria-label={`Clear ${selectedName || 'choice'}`}
              onClick={() => {
                choose(null);
                inputRef.current?.focus();
              }}
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )}
          <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden="true" />
        </div>
      </div>
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="People"
          className="absolute z-50 mt-1 max-h-64 w-full overflow-auto rounded-md border bg-card p-1 text-sm shadow-lg"
        >
          {options.length === 0 ? (
            <li className="px-3 py-2 text-muted-foreground" role="presentation">
              {error ?? (loading ? 'Searching…' : 'Nobody found')}
            </li>
          ) : (
            options.map((option, index) => (
              <li
                key={option.id}
                id={`${listId}-${option.id}`}
                role="option"
                aria-selected={option.id === value}
                className={cn(
                  'flex cursor-pointer items-start gap-2 rounded px-2 py-1.5',
                  index === active && 'bg-accent',
                )}
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(option)}
              >
                <Check className={cn('mt-0.5 size-4 shrink-0', option.id === value ? 'opacity-100' : 'opacity-0')} aria-hidden="true" />
                <span className="flex min-w-0 flex-col">
                  <span className="truncate font-medium">{option.name}</span>
                  {option.detail && <span className="truncate text-xs text-muted-foreground">{option.detail}</span>}
                </span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
