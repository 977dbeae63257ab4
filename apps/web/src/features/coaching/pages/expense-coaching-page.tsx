import type { ReactNode } from 'react';
import { FINDING_KIND_LABELS } from '@outlay/contracts/findings';
import { COACHING_MIN_PEERS, type Coaching } from '@outlay/contracts/coaching';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { formatDate, formatMoney, formatMonth, formatNumber } from '@/lib/format';
import { useCoaching } from '../api/get-coaching';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = `coaching-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs"
    >
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Months({ data }: { data: Coaching }) {
  const max = Math.max(1, ...data.months.map((m) => m.requests));
  return (
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Findings by month">
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Month
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Requests
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Flagged by a policy
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              In a finding
            </th>
            <th scope="col" className="hidden py-1 font-medium sm:table-cell">
              <span className="sr-only">Share</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.months.map((m) => (
            <tr key={m.month} className="border-t">
              <td className="py-1.5 pr-3 whitespace-nowrap">{formatMonth(m.month)}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{formatNumber(m.requests)}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{formatNumber(m.flagged)}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{formatNumber(m.analytics)}</td>
              <td className="hidden w-1/3 py-1.5 sm:table-cell" aria-hidden="true">
                <div className="flex h-2 overflow-hidden rounded-full bg-slate-100">
                  <div
                    className="bg-amber-600"
                    style={{ width: `${(Math.min(m.flagged, m.requests) / max) * 100}%` }}
                  />
                  <div
                    className="bg-blue-300"
                    style={{ width: `${(Math.max(0, m.requests - m.flagged) / max) * 100}%` }}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /expense-coaching: the caller's own picture, with tips drawn from the policies that flagged them. */
/** Why no median is shown, in place of the figure. */
function medianWithheldLine(spend: Coaching['spend']): string {
  if (spend.departmentMedianWithheld === 'no_department') return 'No median: you are not in a department.';
  return `No median: fewer than ${formatNumber(COACHING_MIN_PEERS)} people in your department have approved spend, and over so few it would show a colleague's own spend.`;
}

export default function ExpenseCoachingPage() {
  const coaching = useCoaching();
  return (
    <div>
      <PageHeader
        title="Expense Coaching"
        description="How your requests fare: what flagged them, what came back and why, how your spend compares with your department, and what to do next time."
      />
      <QueryState
        query={coaching}
        loadingLabel="Looking at your requests"
        errorMessage="Could not load your coaching."
        className="h-48"
      >
        {(data) => (
          <div className="grid gap-4 lg:grid-cols-2">
            <Section title="Tips for you" testId="tips">
              {data.tips.length === 0 ? (
                <p className="text-sm text-muted-foreground">Nothing to improve in the last twelve months.</p>
              ) : (
                <ul className="flex flex-col gap-3">
                  {data.tips.map((tip) => (
                    <li key={tip.title} className="rounded-md border-l-4 border-blue-600 bg-muted/30 px-3 py-2">
                      <p className="font-medium">{tip.title}</p>
                      <p className="text-sm">{tip.body}</p>
                      <p className="mt-1 text-xs text-muted-foreground">{tip.basis}</p>
                    </li>
                  ))}
                </ul>
              )}
            </Section>
            <Section title="Your spend" testId="spend">
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div>
                  <dt className="text-xs text-muted-foreground">Approved for you, last 12 months</dt>
                  <dd className="text-xl font-semibold tabular-nums">
                    {formatMoney(data.spend.mine, data.spend.currency)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-muted-foreground">
                    Median in {data.spend.departmentName ?? 'your department'}
                  </dt>
                  {data.spend.departmentMedian ? (
                    <dd className="text-xl font-semibold tabular-nums">
                      {formatMoney(data.spend.departmentMedian, data.spend.currency)}
                    </dd>
                  ) : (
                    <dd className="text-sm" data-testid="median-withheld">
                      {medianWithheldLine(data.spend)}
                    </dd>
                  )}
                </div>
              </dl>
              {data.spend.departmentMedian && (
                <p className="text-xs text-muted-foreground">{`The middle of ${formatNumber(data.spend.departmentPeople)} people's approved spend in your department.`}</p>
              )}
            </Section>
            <Section title="Findings over time" testId="months">
              <Months data={data} />
              {data.findings.length > 0 && (
                <ul className="flex flex-col gap-2">
                  {data.findings.map((f) => (
                    <li
                      key={`${f.kind}-${f.requests.map((r) => r.id).join('-')}`}
                      className="rounded-md border px-3 py-2 text-sm"
                    >
                      <div className="flex flex-wrap items-center gap-2">
                        <Badge variant="warning">{FINDING_KIND_LABELS[f.kind]}</Badge>
                        <span className="font-medium">{f.title}</span>
                      </div>
                      <p className="mt-1 text-muted-foreground">{f.detail}</p>
                      <p className="mt-1 flex flex-wrap gap-x-3">
                        {f.requests.map((r) => (
                          <a
                            key={r.id}
                            href={`/requests?id=${encodeURIComponent(r.id)}`}
                            className="text-primary underline-offset-2 hover:underline"
                          >
                            {r.reference} {r.title}
                          </a>
                        ))}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </Section>
            <Section title="Returned requests" testId="returned">
              {data.returned.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  None of your requests was rejected or sent back in the last twelve months.
                </p>
              ) : (
                <ul className="flex flex-col divide-y text-sm">
                  {data.returned.map((r) => (
                    <li key={`${r.id}-${r.decidedAt}`} className="flex flex-col gap-0.5 py-2">
                      <div className="flex flex-wrap items-center gap-2">
                        <a
                          href={`/requests?id=${encodeURIComponent(r.id)}`}
                          className="font-medium text-primary underline-offset-2 hover:underline"
                        >
                          {r.reference}
                        </a>
                        <span className="min-w-0 break-words">{r.title}</span>
                        <Badge variant={r.decision === 'rejected' ? 'danger' : 'warning'}>
                          {r.decision === 'rejected' ? 'Rejected' : 'Sent back'}
                        </Badge>
                      </div>
                      <p>{r.reason ? `“${r.reason}”` : 'No reason given'}</p>
                      <p className="text-xs text-muted-foreground">
                        {r.deciderName}, {formatDate(r.decidedAt)}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </Section>
          </div>
        )}
      </QueryState>
    </div>
  );
}
