import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { formatMoney } from '@/lib/format';

// The chart library is most of a chart screen's JavaScript, and drawing with it is a long task
// on a phone: the figure's summary and its table are there at once, the drawing is loaded and
// made when the figure comes near the screen (on a phone the dashboard's chart is below the
// key figures, so it no longer holds them up).
const SpendPlot = lazy(() => import('./spend-plot'));

/** True once the element has come within 200 px of the viewport (at once without IntersectionObserver). */
function useNearViewport<T extends Element>() {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near] as const;
}

export interface SpendPoint {
  month: string;
  approved: string;
  paid: string;
  total: string;
  budget?: string | null;
}

// Made once: building an Intl formatter costs about a millisecond, and a chart labels each month twice.
const monthFormats = new Map<boolean, Intl.DateTimeFormat>();

/** "2026-03" → "Mar 2026" in the user's locale. */
export function monthLabel(month: string, short = false): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  let format = monthFormats.get(short);
  if (!format) {
    format = new Intl.DateTimeFormat(
      undefined,
      short ? { month: 'short', year: '2-digit' } : { month: 'long', year: 'numeric' },
    );
    monthFormats.set(short, format);
  }
  return format.format(new Date(Date.UTC(y, m - 1, 1, 12)));
}

/**
 * Approved vs paid per month as stacked bars (with the budget as a line when given). The chart
 * is a picture with a summary for screen readers; the same figures follow in a table for them.
 * Amounts are exact strings from the API; numbers are made only to draw.
 */
export function SpendChart({
  data,
  currency,
  title,
  showBudget = false,
}: {
  data: SpendPoint[];
  currency: string;
  title: string;
  showBudget?: boolean;
}) {
  const rows = data.map((d) => ({
    label: monthLabel(d.month, true),
    approved: Number(d.approved),
    paid: Number(d.paid),
    budget: d.budget == null ? null : Number(d.budget),
  }));
  const [box, near] = useNearViewport<HTMLDivElement>();
  const last = data.at(-1);
  const summary = last
    ? `${title}: ${data.length} months. ${monthLabel(last.month)}: ${formatMoney(last.total, currency)} approved and paid.`
    : `${title}: no data.`;
  return (
    <figure className="flex flex-col gap-2">
      {/* Clipped: a tooltip left open by a tap must not push a phone's page sideways. */}
      <div ref={box} className="h-64 w-full overflow-hidden sm:h-72" role="img" aria-label={summary}>
        {near ? (
          <Suspense fallback={<div className="size-full animate-pulse rounded-md bg-slate-50" />}>
            <SpendPlot rows={rows} currency={currency} showBudget={showBudget} />
          </Suspense>
        ) : (
          <div className="size-full rounded-md bg-slate-50" />
        )}
      </div>
      {/* A table ignores width: 1px, so the clipping box is a wrapper; otherwise it widens the page on a phone. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Approved, not yet paid</th>
              <th scope="col">Paid</th>
              <th scope="col">Total</th>
              {showBudget ? <th scope="col">Budget</th> : null}
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.month}>
                <th scope="row">{monthLabel(d.month)}</th>
                <td>{formatMoney(d.approved, currency)}</td>
                <td>{formatMoney(d.paid, currency)}</td>
                <td>{formatMoney(d.total, currency)}</td>
                {showBudget ? <td>{d.budget ? formatMoney(d.budget, currency) : 'No budget'}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
