import { formatHours } from './time';

export interface CycleTimeRow {
  key: string;
  label: string;
  decisions: number;
  averageHours: number;
  medianHours: number;
  p90Hours: number;
}

/**
 * Horizontal bars (pure CSS): the median as the solid bar, the 90th percentile as the pale
 * one behind it, both against the longest p90 of the set; the table below has every figure.
 */
export function CycleTimeChart({
  rows,
  caption,
  nameHeader,
}: {
  rows: readonly CycleTimeRow[];
  caption: string;
  nameHeader: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No decisions in this period yet.</p>;
  const max = Math.max(1, ...rows.map((r) => r.p90Hours));
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-2" aria-hidden="true">
        {rows.map((r) => (
          <li
            key={r.key}
            className="grid grid-cols-[minmax(0,9rem)_1fr] items-center gap-2 text-xs sm:grid-cols-[minmax(0,12rem)_1fr]"
          >
            <span className="truncate" title={r.label}>
              {r.label}
            </span>
            <span className="relative h-4 rounded bg-muted">
              <span
                className="absolute inset-y-0 left-0 rounded bg-blue-200"
                style={{ width: `${(r.p90Hours / max) * 100}%` }}
              />
              <span
                className="absolute inset-y-0 left-0 rounded bg-blue-600"
                style={{ width: `${(r.medianHours / max) * 100}%` }}
              />
            </span>
          </li>
        ))}
      </ul>
      <p className="flex gap-4 text-xs text-muted-foreground" aria-hidden="true">
        <span className="inline-flex items-center gap-1">
          <span className="inline-block size-3 rounded bg-blue-600" /> median
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="inline-block size-3 rounded bg-blue-200" /> 90th percentile
        </span>
      </p>
      {/* On a phone the figures may scroll sideways: the region takes focus so that arrow keys reach them. */}
      <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
        <table className="w-full text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                {nameHeader}
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                Decisions
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                Average
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                Median
              </th>
              <th scope="col" className="py-1.5 pl-2 text-right font-medium">
                p90
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-b last:border-b-0">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                  {r.label}
                </th>
                <td className="px-2 py-1.5 text-right tabular-nums">{r.decisions}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{formatHours(r.averageHours)}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{formatHours(r.medianHours)}</td>
                <td className="py-1.5 pl-2 text-right tabular-nums">{formatHours(r.p90Hours)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
