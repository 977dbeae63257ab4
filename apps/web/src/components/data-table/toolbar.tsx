import * as DropdownMenuPrimitive from '@radix-ui/react-dropdown-menu';
import { Check, Columns3, Download, Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useStepUp } from '@/components/form/step-up';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { downloadFile } from './download';

export const SEARCH_DEBOUNCE_MS = 300;

interface DataTableSearchProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  debounceMs?: number;
}

/** The search box: types freely, sends `q` after a short pause (and at once on Enter). */
export function DataTableSearch({
  value,
  onChange,
  label,
  placeholder,
  debounceMs = SEARCH_DEBOUNCE_MS,
}: DataTableSearchProps) {
  const [text, setText] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  // The view changed from outside (Clear filters, back button): show its search text.
  if (value !== lastValue) {
    setLastValue(value);
    setText(value);
  }
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const schedule = (next: string, delay: number) => {
    clearTimeout(timer.current);
    if (delay === 0) latest.current(next);
    else timer.current = setTimeout(() => latest.current(next), delay);
  };

  return (
    <div className="relative w-full min-w-0 sm:w-72">
      <Search
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={text}
        maxLength={200}
        className="pl-9 pr-9 [&::-webkit-search-cancel-button]:hidden"
        onChange={(event) => {
          setText(event.target.value);
          schedule(event.target.value, debounceMs);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            schedule(text, 0);
          }
        }}
      />
      {text && (
        <button
          type="button"
          aria-label="Clear search"
          onClick={() => {
            setText('');
            schedule('', 0);
          }}
          className="absolute inset-y-0 right-0 flex w-9 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

interface ColumnsMenuProps {
  columns: { id: string; label: string; visible: boolean }[];
  onToggle: (id: string, visible: boolean) => void;
}

/** "Columns": show or hide the optional columns. The last visible one cannot be hidden. */
export function DataTableColumnsMenu({ columns, onToggle }: ColumnsMenuProps) {
  const visibleCount = columns.filter((c) => c.visible).length;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <Columns3 aria-hidden="true" />
          Columns
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-48">
        <DropdownMenuLabel>Show columns</DropdownMenuLabel>
        {columns.map((column) => (
          <DropdownMenuPrimitive.CheckboxItem
            key={column.id}
            checked={column.visible}
            disabled={column.visible && visibleCount === 1}
            onCheckedChange={(checked) => onToggle(column.id, checked === true)}
            onSelect={(event) => event.preventDefault()}
            className="relative flex cursor-pointer select-none items-center gap-2 rounded-md py-2 pl-8 pr-2.5 text-sm outline-none data-[highlighted]:bg-accent data-[disabled]:pointer-events-none data-[disabled]:opacity-50"
          >
            <span className="absolute left-2 flex size-4 items-center justify-center">
              <DropdownMenuPrimitive.ItemIndicator>
                <Check className="size-4" aria-hidden="true" />
              </DropdownMenuPrimitive.ItemIndicator>
            </span>
            {column.label}
          </DropdownMenuPrimitive.CheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const FORMAT_LABELS = { csv: 'CSV', xlsx: 'Excel' } as const;

interface ExportButtonsProps {
  formats: readonly ('csv' | 'xlsx')[];
  exportUrl: (format: 'csv' | 'xlsx') => string;
  /** File name without extension when the server sends none. */
  filename: string;
}

/** Export buttons: every row matching the current sort, search and filters, as CSV or XLSX. */
export function DataTableExportButtons({ formats, exportUrl, filename }: ExportButtonsProps) {
  const [pending, setPending] = useState<'csv' | 'xlsx' | null>(null);
  // Some exports (every account's password status) ask for the password first.
  const stepUp = useStepUp();
  const run = async (format: 'csv' | 'xlsx') => {
    setPending(format);
    try {
      await stepUp.withStepUp(downloadFile)(exportUrl(format), `${filename.replace(/[^\w.-]+/g, '-')}.${format}`);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Export failed',
        description: messageOf(error, 'The export could not be created.'),
      });
    } finally {
      setPending(null);
    }
  };
  return (
    <div className="flex items-center gap-2">
      {formats.map((format) => (
        <Button
          key={format}
          variant="outline"
          size="sm"
          disabled={pending !== null}
          aria-label={`Export ${FORMAT_LABELS[format]}`}
          onClick={() => void run(format)}
        >
          <Download aria-hidden="true" />
          {pending === format ? 'Exporting…' : FORMAT_LABELS[format]}
        </Button>
      ))}
      {stepUp.dialog}
    </div>
  );
}
