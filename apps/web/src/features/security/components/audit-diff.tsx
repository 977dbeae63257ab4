import { auditChanges } from '@outlay/contracts/audit';
import { cn } from '@/lib/utils';

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 1);
}

/** Before and after side by side, key by key; changed keys are highlighted and announced. */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const rows = auditChanges(before, after);
  if (rows.length === 0)
    return <p className="text-sm text-muted-foreground">This event records no before or after values.</p>;
  const changed = rows.filter((r) => r.changed).length;
  return (
    <div className="relative overflow-x-auto rounded-md border">
      <table
        className="w-full text-sm"
        aria-label={`Before and after: ${changed} ${changed === 1 ? 'value' : 'values'} changed`}
      >
        <thead className="bg-muted/60 text-left">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Before
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.key}
              data-changed={row.changed || undefined}
              className={cn('border-t align-top', row.changed && 'bg-amber-50')}
            >
              <th scope="row" className="px-3 py-2 text-left font-mono text-xs font-medium">
                {row.key}
                {row.changed && (
                  <span className="ml-2 rounded bg-amber-200 px-1 font-sans text-[10px] font-semibold uppercase text-amber-950">
                    changed
                  </span>
                )}
              </th>
              <td
                className={cn(
                  'whitespace-pre-wrap break-all px-3 py-2 font-mono text-xs',
                  row.changed && 'text-red-800 line-through decoration-red-400',
                )}
              >
                {show(row.before)}
              </td>
              <td
                className={cn(
                  'whitespace-pre-wrap break-all px-3 py-2 font-mono text-xs',
                  row.changed && 'font-semibold text-emerald-900',
                )}
              >
                {show(row.after)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
