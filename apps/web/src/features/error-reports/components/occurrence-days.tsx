import type { ErrorReportDay } from '@outlay/contracts/error-reports';
import { formatDate, plural } from '@/lib/format';

const DAYS_SHOWN = 30;

/** The last 30 UTC days ending `today`, oldest first, as `YYYY-MM-DD`. */
function lastDays(today: Date): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: DAYS_SHOWN }, (_, i) =>
    new Date(end - (DAYS_SHOWN - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Occurrences per day over the last 30 days as small bars; each bar says its day and count to a screen reader. */
export function OccurrenceDays({ days, today = new Date() }: { days: readonly ErrorReportDay[]; today?: Date }) {
  const counts = new Map(days.map((d) => [d.day, d.occurrences]));
  const shown = lastDays(today).map((day) => ({ day, occurrences: counts.get(day) ?? 0 }));
  const max = Math.max(1, ...shown.map((d) => d.occurrences));
  const total = shown.reduce((sum, d) => sum + d.occurrences, 0);
  return (
    <figure className="flex flex-col gap-2">
      <ol className="flex h-16 items-end gap-px" aria-label="Occurrences per day, last 30 days">
        {shown.map((d) => (
          <li
            key={d.day}
            className="flex h-full min-w-0 flex-1 items-end"
            aria-label={`${formatDate(d.day)}: ${plural(d.occurrences, 'occurrence')}`}
            title={`${formatDate(d.day)}: ${plural(d.occurrences, 'occurrence')}`}
          >
            <span
              className={d.occurrences ? 'w-full rounded-t-sm bg-red-500' : 'w-full rounded-t-sm bg-muted'}
              style={{ height: d.occurrences ? `${Math.max(8, (d.occurrences / max) * 100)}%` : '2px' }}
            />
          </li>
        ))}
      </ol>
      <figcaption className="flex justify-between text-xs text-muted-foreground">
        <span>{formatDate(shown[0]!.day)}</span>
        <span>{plural(total, 'occurrence')} in the last 30 days</span>
        <span>Today</span>
      </figcaption>
    </figure>
  );
}
