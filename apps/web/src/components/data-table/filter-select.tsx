import { MoreHorizontal } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import type { ListQueryResult } from './use-list-query';

const ALL = '__all';

export interface FilterOption {
  value: string;
  label: string;
}

export interface DataTableFilterSelectProps {
  /** The list whose filter this sets (the value returned by useListQuery). */
  query: Pick<ListQueryResult<unknown>, 'state' | 'setters'>;
  /** The filter's query parameter, e.g. 'status'. Must be listed in useListQuery's `filters`. */
  name: string;
  /** Accessible name and placeholder, e.g. "Status". */
  label: string;
  options: readonly FilterOption[];
  /** Text of the "no filter" choice (default "All <label lower case>"). */
  allLabel?: string;
  className?: string;
}

/** An enum filter for the DataTable toolbar: "All statuses", "Active", "Blocked"… */
export function DataTableFilterSelect({
  query,
  name,
  label,
  options,
  allLabel,
  className,
}: DataTableFilterSelectProps) {
  const value = query.state.filters[name] ?? ALL;
  return (
    <Select value={value} onValueChange={(next) => query.setters.setFilter(name, next === ALL ? undefined : next)}>
      <SelectTrigger aria-label={label} className={cn('h-10 w-full sm:w-44', className)}>
        <SelectValue placeholder={label} />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{allLabel ?? `All ${label.toLowerCase()}`}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export interface RowAction {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  destructive?: boolean;
  disabled?: boolean;
  /** Draw a separator above this item. */
  separated?: boolean;
}

/** The "…" menu of one row. `label` names the row for screen readers, e.g. "Actions for Acme Ltd". */
export function DataTableRowActions({ label, actions }: { label: string; actions: readonly RowAction[] }) {
  if (actions.length === 0) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={label}>
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-44">
        {actions.map((action) => (
          <Fragment key={action.label}>
            {action.separated && <DropdownMenuSeparator />}
            <DropdownMenuItem
              disabled={action.disabled}
              onSelect={action.onSelect}
              className={cn(
                action.destructive && 'text-destructive data-[highlighted]:text-destructive [&_svg]:text-destructive',
              )}
            >
              {action.icon}
              {action.label}
            </DropdownMenuItem>
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
