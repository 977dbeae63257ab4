import { Check, ChevronsUpDown, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import type { CreateRequestForm } from '@outlay/contracts/requests';
import { FormField } from '@/components/form';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { useVendorOptions } from '../api/vendor-options';

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return current;
}

/**
 * The optional vendor: a searchable combobox over `vendor-options?q` (ARIA 1.2 pattern:
 * arrows move, Enter picks, Escape closes). Blocked vendors are listed but cannot be chosen.
 */
export function VendorCombobox({ initialName }: { initialName?: string | null }) {
  const form = useFormContext<CreateRequestForm>();
  const listId = useId();
  const [text, setText] = useState(initialName ?? '');
  const [selectedName, setSelectedName] = useState(initialName ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(text === selectedName ? '' : text, 250);
  const vendors = useVendorOptions(search, open);
  const items = vendors.data?.items ?? [];
  const inputRef = useRef<HTMLInputElement | null>(null);
  // Closing after a blur waits a moment (a click on an option must land first); coming back or
  // typing in that moment cancels it, so the list never closes under the user's fingers.
  const blurTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelBlur = () => {
    if (blurTimer.current) clearTimeout(blurTimer.current);
    blurTimer.current = null;
  };
  const error = form.formState.errors.vendorId?.message;

  return (
    <Controller
      control={form.control}
      name="vendorId"
      render={({ field }) => {
        const choose = (item: (typeof items)[number]) => {
          if (item.blocked) return;
          field.onChange(item.id);
          setSelectedName(item.name);
          setText(item.name);
          setOpen(false);
        };
        const clear = () => {
          field.onChange(null);
          setSelectedName('');
          setText('');
          inputRef.current?.focus();
        };
        return (
          <FormField label="Vendor" hint="Optional. Type to search your organization's vendors." error={typeof error === 'string' ? error : undefined}>
            {(control) => (
              <div className="relative">
                <Input
                  {...control}
                  ref={(el) => {
                    inputRef.current = el;
                    field.ref(el);
                  }}
                  role="combobox"
                  aria-expanded={open}
                  aria-controls={listId}
                  aria-autocomplete="list"
                  aria-activedescendant={open && items[active] ? `${listId}-${active}` : undefined}
                  autoComplete="off"
                  placeholder="Search vendors…"
                  value={text}
                  className="pr-16"
                  onFocus={() => {
                    cancelBlur();
                    setOpen(true);
                  }}
                  onClick={() => setOpen(true)}
                  onBlur={() => {
                    // Leaving with text that is no vendor keeps the last choice.
                    cancelBlur();
                    blurTimer.current = setTimeout(() => {
                      blurTimer.current = null;
                      setOpen(false);
                      setText((t) => (field.value ? selectedName : t === selectedName ? t : ''));
                    }, 150);
                    field.onBlur();
                  }}
                  onChange={(event) => {
                    cancelBlur();
                    setText(event.target.value);
                    setOpen(true);
                    setActive(0);
                    if (event.target.value === '' && field.value) {
                      field.onChange(null);
                      setSelectedName('');
                    }
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'ArrowDown') {
                      event.preventDefault();
                      setOpen(true);
                      setActive((i) => Math.min(items.length - 1, i + 1));
                    } else if (event.key === 'ArrowUp') {
                      event.preventDefault();
                      setActive((i) => Math.max(0, i - 1));
                    } else if (event.key === 'Enter' && open && items[active]) {
                      event.preventDefault();
                      choose(items[active]);
                    } else if (event.key === 'Escape' && open) {
                      event.preventDefault();
                      setOpen(false);
                    }
                  }}
                />
                <span className="absolute inset-y-0 right-2 flex items-center gap-1">
                  {field.value && (
                    <button type="button" onClick={clear} className="rounded p-1 text-muted-foreground hover:text-foreground" aria-label="Clear vendor">
                      <X className="size-4" aria-hidden="true" />
                    </button>
                  )}
                  <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden="true" />
                </span>
                {open && (
                  <ul
                    id={listId}
                    role="listbox"
                    aria-label="Vendors"
                    className="absolute z-30 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-card py-1 shadow-lg"
                  >
                    {vendors.isLoading && <li className="px-3 py-2 text-sm text-muted-foreground">Searching…</li>}
                    {vendors.isError && <li className="px-3 py-2 text-sm text-destructive">Vendors could not be loaded.</li>}
                    {!vendors.isLoading && !vendors.isError && items.length === 0 && (
                      <li className="px-3 py-2 text-sm text-muted-foreground">No vendor matches “{text}”.</li>
                    )}
                    {items.map((item, index) => (
                      <li
                        key={item.id}
                        id={`${listId}-${index}`}
                        role="option"
                        aria-selected={field.value === item.id}
                        aria-disabled={item.blocked || undefined}
                        onMouseDown={(event) => event.preventDefault()}
                        onMouseEnter={() => setActive(index)}
                        onClick={() => choose(item)}
                        className={cn(
                          'flex cursor-pointer items-center justify-between gap-2 px-3 py-2 text-sm',
                          index === active && 'bg-accent',
                          item.blocked && 'cursor-not-allowed text-muted-foreground',
                        )}
                      >
                        <span className="flex items-center gap-2">
                          {field.value === item.id ? <Check className="size-4" aria-hidden="true" /> : <span className="size-4" aria-hidden="true" />}
                          {item.name}
                          <span className="text-xs text-muted-foreground">{item.currency}</span>
                        </span>
                        {item.blocked && <Badge variant="danger">Blocked</Badge>}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </FormField>
        );
      }}
    />
  );
}
