import type { ReactNode } from 'react';
import { formatDateTime } from '@/lib/format';

/** One column of a DataTable. Plain data, so pages can declare columns at module scope. */
export interface DataTableColumn<T> {
  /** Unique id; also the server sort key unless `sortKey` is given. */
  id: string;
  /** Header text; also the label in the "Columns" menu and the CSV-style title. */
  header: string;
  /** The raw value: a property name or a function. Defaults to `row[id]`. */
  accessor?: keyof T | ((row: T) => unknown);
  /** Custom cell content. Without it the value is shown as text ('—' when empty). */
  cell?: (row: T) => ReactNode;
  /** The header becomes a sort button sending `sort=<sortKey ?? id>`. */
  sortable?: boolean;
  /** Server sort key when it differs from the id. */
  sortKey?: string;
  /** Right-align numbers and money. */
  align?: 'left' | 'right' | 'center';
  /** Can be hidden from the "Columns" menu (default true). */
  hideable?: boolean;
  /** Starts hidden (the user can show it from the "Columns" menu). */
  hidden?: boolean;
  /** Extra classes for the cells (body) and the header cell. */
  className?: string;
  headerClassName?: string;
}

export function columnValue<T>(column: DataTableColumn<T>, row: T): unknown {
  const { accessor } = column;
  if (typeof accessor === 'function') return accessor(row);
  const key = (accessor ?? column.id) as keyof T;
  return row && typeof row === 'object' ? (row as T)[key] : undefined;
}

export function displayValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value instanceof Date) return formatDateTime(value) ?? '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function sortKeyOf<T>(column: DataTableColumn<T>): string {
  return column.sortKey ?? column.id;
}
