import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useId } from 'react';
import { PAGE_SIZES } from '@outlay/contracts/lists';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { formatNumber } from '@/lib/format';

interface DataTablePaginationProps {
  page: number;
  pageSize: number;
  total: number;
  /** The server stopped counting at `total` (a large list): the label says "1,000+" and Next stays open while there is a next page. */
  totalIsEstimate?: boolean;
  hasNextPage?: boolean;
  /** Rows on this page (the range's end when the total is an estimate). */
  rowsShown?: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

export function pageCount(total: number, pageSize: number) {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "1–25 of 132": the rows shown on this page out of all matching rows ("of 1,000+" when the count stopped there). */
export function rangeLabel(
  page: number,
  pageSize: number,
  total: number,
  totalIsEstimate = false,
  rowsShown = pageSize,
) {
  if (total === 0) return '0 of 0';
  if (totalIsEstimate) {
    const from = (page - 1) * pageSize + 1;
    const to = from + Math.max(rowsShown, 1) - 1;
    return `${formatNumber(from)}–${formatNumber(to)} of ${formatNumber(Math.max(total, to))}+`;
  }
  const from = Math.min((page - 1) * pageSize + 1, total);
  const to = Math.min(page * pageSize, total);
  return `${formatNumber(from)}–${formatNumber(to)} of ${formatNumber(total)}`;
}

export function DataTablePagination({
  page,
  pageSize,
  total,
  totalIsEstimate,
  hasNextPage,
  rowsShown,
  onPageChange,
  onPageSizeChange,
}: DataTablePaginationProps) {
  const labelId = useId();
  const counted = pageCount(total, pageSize);
  // Past a capped count the pages go on as long as the server says there is a next one.
  const last = totalIsEstimate ? Math.max(counted, page + (hasNextPage ? 1 : 0)) : counted;
  const current = Math.min(page, last);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t px-3 py-2 text-sm"
    >
      <div className="flex items-center gap-2">
        <span id={labelId} className="text-muted-foreground">
          Rows per page
        </span>
        <Select value={String(pageSize)} onValueChange={(value) => onPageSizeChange(Number(value))}>
          <SelectTrigger aria-labelledby={labelId} className="h-8 w-[4.5rem]">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PAGE_SIZES.map((size) => (
              <SelectItem key={size} value={String(size)}>
                {size}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex items-center gap-1">
        <span className="mr-2 tabular-nums text-muted-foreground" aria-live="polite">
          {rangeLabel(current, pageSize, total, totalIsEstimate, rowsShown)}
        </span>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          aria-label="First page"
          disabled={current <= 1}
          onClick={() => onPageChange(1)}
        >
          <ChevronsLeft aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          aria-label="Previous page"
          disabled={current <= 1}
          onClick={() => onPageChange(current - 1)}
        >
          <ChevronLeft aria-hidden="true" />
        </Button>
        <span className="hidden px-1 tabular-nums text-muted-foreground sm:inline">
          Page {current} of {last}
        </span>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          aria-label="Next page"
          disabled={current >= last}
          onClick={() => onPageChange(current + 1)}
        >
          <ChevronRight aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          aria-label="Last page"
          disabled={current >= last || totalIsEstimate}
          onClick={() => onPageChange(last)}
        >
          <ChevronsRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
