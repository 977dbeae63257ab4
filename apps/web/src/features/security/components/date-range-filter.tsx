import { Input } from '@/components/ui/input';
import type { ListQueryResult } from '@/components/data-table';

/** `from`/`to` day filters for a DataTable toolbar (both must be listed in useListQuery's filters). */
export function DateRangeFilter({
  query,
  label,
}: {
  query: Pick<ListQueryResult<unknown>, 'state' | 'setters'>;
  label: string;
}) {
  return (
    <div className="flex items-center gap-2">
      <Input
        type="date"
        aria-label={`${label} from`}
        className="h-10 w-full sm:w-40"
        value={query.state.filters.from ?? ''}
        onChange={(event) => query.setters.setFilter('from', event.target.value || undefined)}
      />
      <span className="text-sm text-muted-foreground" aria-hidden="true">
        –
      </span>
      <Input
        type="date"
        aria-label={`${label} to`}
        className="h-10 w-full sm:w-40"
        value={query.state.filters.to ?? ''}
        onChange={(event) => query.setters.setFilter('to', event.target.value || undefined)}
      />
    </div>
  );
}
