import * as Popover from '@radix-ui/react-popover';
import { Command, useCommandState } from 'cmdk';
import { Check, ChevronsUpDown, X } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { cn } from '@/lib/utils';

export interface ComboboxItem {
  id: string;
}

export interface ComboboxProps<T extends ComboboxItem> {
  /** The chosen item's id, or null. */
  value: string | null;
  /** How to show the chosen item when it is not among the current items (e.g. a saved value). */
  valueLabel?: string | null;
  onChange: (item: T | null) => void;
  /** The items for the current search text (the caller searches the server). */
  items: readonly T[];
  /** Called, debounced, with the text typed while the list is open. */
  onSearch: (q: string) => void;
  itemLabel: (item: T) => string;
  renderItem?: (item: T) => ReactNode;
  /** Items shown but not choosable (e.g. blocked vendors). */
  isDisabled?: (item: T) => boolean;
  /** Shown in place of the items when there are none (searching, failed, nothing found). */
  emptyText: (text: string) => ReactNode;
  /** The accessible name of the list, e.g. "People". */
  listLabel: string;
  placeholder?: string;
  disabled?: boolean;
  clearable?: boolean;
  /** The clear button's accessible name for the chosen label. */
  clearLabel?: (label: string) => string;
  className?: string;
  inputRef?: Ref<HTMLInputElement>;
  onBlur?: () => void;
  /** Wiring from FormField: id, aria-invalid, aria-describedby. */
  id?: string;
  'aria-invalid'?: true | undefined;
  'aria-describedby'?: string | undefined;
  'aria-label'?: string;
  'aria-required'?: boolean;
}

const SEARCH_DELAY_MS = 200;

/**
 * A searchable picker on the ARIA combobox pattern: type to search, arrows to move, Enter to
 * choose, Escape to close. cmdk owns the list and its keyboard; a Radix Popover owns opening and
 * closing (outside click, focus leaving, Escape), so there is no blur timer racing a click.
 */
export function Combobox<T extends ComboboxItem>(props: ComboboxProps<T>) {
  return (
    // The server filters; cmdk only keeps the highlighted item and the keyboard.
    <Command shouldFilter={false} label={props.listLabel} className={cn('relative', props.className)}>
      <ComboboxBody {...props} />
    </Command>
  );
}

function setRef<V>(ref: Ref<V> | undefined, value: V | null) {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

function ComboboxBody<T extends ComboboxItem>({
  value,
  valueLabel,
  onChange,
  items,
  onSearch,
  itemLabel,
  renderItem,
  isDisabled,
  emptyText,
  listLabel,
  placeholder,
  disabled,
  clearable = true,
  clearLabel = (label) => `Clear ${label || 'choice'}`,
  className: _className,
  inputRef,
  onBlur,
  ...aria
}: ComboboxProps<T>) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<T | null>(null);
  const [listId, setListId] = useState<string | undefined>();
  const activeId = useCommandState((state) => state.selectedItemId);
  const input = useRef<HTMLInputElement | null>(null);
  const anchor = useRef<HTMLDivElement | null>(null);

  const selected = value ? (chosen?.id === value ? chosen : items.find((item) => item.id === value)) : undefined;
  const selectedLabel = selected ? itemLabel(selected) : value ? (valueLabel ?? '') : '';

  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, open, onSearch]);

  const close = () => {
    setOpen(false);
    setText('');
  };
  const choose = (item: T | null) => {
    setChosen(item);
    onChange(item);
    close();
  };

  return (
    <Popover.Root open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
      <Popover.Anchor asChild>
        <div ref={anchor} className="relative">
          <input
            ref={(el) => {
              input.current = el;
              setRef(inputRef, el);
            }}
            type="text"
            role="combobox"
            aria-expanded={open}
            aria-controls={open ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={open ? activeId : undefined}
            autoComplete="off"
            disabled={disabled}
            placeholder={selectedLabel || placeholder}
            value={open ? text : selectedLabel}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
            }}
            onClick={() => setOpen(true)}
            onBlur={onBlur}
            onKeyDown={(event) => {
              if (open) return;
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                setOpen(true);
              }
              // A closed list leaves Enter to the form: cmdk would swallow it.
              event.stopPropagation();
            }}
            className="flex h-10 w-full rounded-md border border-input bg-card py-2 pl-3 pr-16 text-sm text-foreground shadow-xs placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-destructive"
            {...aria}
          />
          <div className="absolute inset-y-0 right-2 flex items-center gap-1">
            {clearable && value && !disabled && (
              <button
                type="button"
                className="rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground"
                aria-label={clearLabel(selectedLabel)}
                onClick={() => {
                  choose(null);
                  input.current?.focus();
                }}
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            )}
            <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden="true" />
          </div>
        </div>
      </Popover.Anchor>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          // Focus stays in the input while the list is open.
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          onMouseDown={(event) => event.preventDefault()}
          // Radix gives the popover the dialog role; a dialog needs a name, whenever it is caught open.
          aria-label={listLabel}
          onInteractOutside={(event) => {
            if (event.target instanceof Node && anchor.current?.contains(event.target)) event.preventDefault();
          }}
          className="z-50 w-(--radix-popover-trigger-width) rounded-md border bg-card p-1 text-sm shadow-lg"
        >
          <Command.List ref={(el) => setListId(el?.id)} aria-label={listLabel} className="max-h-64 overflow-y-auto">
            {items.length === 0 ? (
              <div role="presentation" className="px-3 py-2 text-muted-foreground">
                {emptyText(text)}
              </div>
            ) : (
              items.map((item) => (
                <Command.Item
                  key={item.id}
                  value={item.id}
                  disabled={isDisabled?.(item)}
                  onSelect={() => choose(item)}
                  className="flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:text-muted-foreground data-[selected=true]:bg-accent"
                >
                  <Check
                    className={cn('mt-0.5 size-4 shrink-0', item.id === value ? 'opacity-100' : 'opacity-0')}
                    aria-hidden="true"
                  />
                  {renderItem ? renderItem(item) : <span className="truncate">{itemLabel(item)}</span>}
                </Command.Item>
              ))
            )}
          </Command.List>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
