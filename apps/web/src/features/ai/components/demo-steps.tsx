import { useQuery } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { FINDING_KIND_LABELS, FINDING_KIND_VALUES } from '@outlay/contracts/findings';
import { SEARCH_RESULT_TYPE_LABELS } from '@outlay/contracts/search';
import { RECEIPT_FIELDS, RECEIPT_LOW_CONFIDENCE, type ReceiptField } from '@outlay/contracts/receipts';
import { QueryError, QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDate, formatMoney, formatNumber, formatPercent, plural } from '@/lib/format';
import { messageOf } from '@/lib/api-error';
import { coachingQueryOptions } from '@/features/coaching';
import { findingsQueryOptions } from '@/features/findings';
import { forecastsQueryOptions } from '@/features/forecasts';
import { useScanReceipt } from '@/features/receipts';
import { requestSuggestionsQueryOptions } from '@/features/request-suggestions';
import { useSearch } from '@/features/search';
import { useAskCopilot } from '../api/ask-copilot';
import { useParseExpense } from '../api/parse-expense';
import { CopilotAnswer } from './copilot-answer';

/** The inputs the tour runs: shipped with the app, so it runs the same offline. */
export const DEMO_SAMPLES = {
  receipt: { src: '/samples/receipts/us-coffee-photo.jpg', name: 'us-coffee-photo.jpg', type: 'image/jpeg' },
  sentence: 'Taxi to the airport 45 dollars yesterday, client visit',
  question: 'Top 5 vendors this year',
  search: 'Skyline Travel',
  description: 'Flights and hotel for the client visit in Chicago',
} as const;

export interface DemoStepProps {
  /** Called once the step's result has arrived, so the tour can tick it off (a stable function). */
  onDone: () => void;
}

/** Tells the tour once a step's result is on screen. */
function useDoneWhen(done: boolean, onDone: () => void) {
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);
}

function StepLayout({ sample, run, children }: { sample: ReactNode; run: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section
        aria-label="Sample input"
        className="flex min-w-0 flex-col gap-3 self-start rounded-md border bg-muted/30 p-4"
      >
        <h3 className="text-sm font-semibold">Sample input</h3>
        {sample}
        <div>{run}</div>
      </section>
      <section aria-label="Result" aria-live="polite" className="flex min-w-0 flex-col gap-3 rounded-md border p-4">
        <h3 className="text-sm font-semibold">Result</h3>
        {children}
      </section>
    </div>
  );
}

function RunButton({ onClick, busy, label = 'Run' }: { onClick: () => void; busy: boolean; label?: string }) {
  return (
    <Button type="button" onClick={onClick} disabled={busy}>
      <Play aria-hidden="true" />
      {label}
    </Button>
  );
}

function NotRunYet() {
  return (
    <p className="text-sm text-muted-foreground">Press Run to send the sample to the server and see what comes back.</p>
  );
}

function Quote({ children }: { children: ReactNode }) {
  return (
    <blockquote className="rounded-md border-l-4 border-primary bg-background px-3 py-2 text-sm font-medium">
      “{children}”
    </blockquote>
  );
}

function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="min-w-0 break-words font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const RECEIPT_LABELS: Record<ReceiptField, string> = {
  merchant: 'Merchant',
  date: 'Date',
  total: 'Total',
  tax: 'Tax',
  currency: 'Currency',
};

export function ReceiptDemoStep({ onDone }: DemoStepProps) {
  const scan = useScanReceipt();
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  // The sample is a static file of the web app, posted as a real upload: the server cannot tell it from a photo.
  const run = async () => {
    setProblem(null);
    scan.reset();
    setLoading(true);
    try {
      const res = await fetch(DEMO_SAMPLES.receipt.src);
      if (!res.ok) throw new Error('The sample receipt could not be loaded');
      const file = new File([await res.blob()], DEMO_SAMPLES.receipt.name, { type: DEMO_SAMPLES.receipt.type });
      scan.mutate(file, { onSuccess: onDone });
    } catch (error) {
      setProblem(messageOf(error, 'The sample receipt could not be loaded'));
    } finally {
      setLoading(false);
    }
  };

  const data = scan.data;
  return (
    <StepLayout
      sample={
        <img
          src={DEMO_SAMPLES.receipt.src}
          alt="Sample receipt: a photographed coffee shop receipt"
          className="max-h-80 w-full rounded-md border bg-background object-contain"
        />
      }
      run={<RunButton onClick={() => void run()} busy={loading || scan.isPending} label="Run: read the receipt" />}
    >
      {problem && <QueryError error={null} message={problem} />}
      {(loading || scan.isPending) && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner size="sm" label="Reading the receipt" /> Reading the receipt… this takes a few seconds.
        </p>
      )}
      {scan.isError && (
        <QueryError error={scan.error} message="The receipt could not be read." onRetry={() => void run()} />
      )}
      {data && (
        <table className="w-full text-sm" data-testid="demo-receipt-result">
          <caption className="sr-only">Fields read from the receipt</caption>
          <thead>
            <tr className="text-left text-muted-foreground">
              <th scope="col" className="py-1 font-medium">
                Field
              </th>
              <th scope="col" className="py-1 font-medium">
                Read
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Confidence
              </th>
            </tr>
          </thead>
          <tbody>
            {RECEIPT_FIELDS.map((field) => {
              const value = data[field];
              const confidence = data.confidence[field];
              const low = value !== null && confidence < RECEIPT_LOW_CONFIDENCE;
              const shown =
                value === null
                  ? 'Not found'
                  : (field === 'total' || field === 'tax') && data.currency
                    ? formatMoney(value, data.currency)
                    : field === 'date'
                      ? formatDate(value)
                      : value;
              return (
                <tr key={field} className="border-t" data-testid={`demo-receipt-${field}`}>
                  <th scope="row" className="py-1.5 pr-2 text-left font-normal text-muted-foreground">
                    {RECEIPT_LABELS[field]}
                  </th>
                  <td className="py-1.5 pr-2 font-medium">{shown}</td>
                  <td className="py-1.5 text-right">
                    {value === null ? (
                      '–'
                    ) : (
                      <Badge variant={low ? 'warning' : 'success'}>
                        {formatPercent(confidence * 100, 0)} sure{low ? ', check it' : ''}
                      </Badge>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {!data && !scan.isPending && !scan.isError && !loading && !problem && <NotRunYet />}
    </StepLayout>
  );
}

export function SentenceDemoStep({ onDone }: DemoStepProps) {
  const parse = useParseExpense();
  const data = parse.data;
  const run = () => parse.mutate({ text: DEMO_SAMPLES.sentence }, { onSuccess: onDone });
  return (
    <StepLayout
      sample={<Quote>{DEMO_SAMPLES.sentence}</Quote>}
      run={<RunButton onClick={run} busy={parse.isPending} label="Run: read the sentence" />}
    >
      {parse.isPending && <Spinner size="sm" label="Reading the sentence" />}
      {parse.isError && <QueryError error={parse.error} message="The sentence could not be read." onRetry={run} />}
      {data && (
        <Facts
          testId="demo-sentence-result"
          rows={[
            ['Amount', data.amount === null ? 'Not found' : formatMoney(data.amount, data.currency)],
            ['Date', formatDate(data.date)],
            ['Category', data.category?.name ?? 'None matched'],
            ['Vendor', data.vendor?.name ?? 'None matched'],
            ['Description', data.description],
          ]}
        />
      )}
      {parse.isIdle && <NotRunYet />}
    </StepLayout>
  );
}

export function CopilotDemoStep({ onDone }: DemoStepProps) {
  const ask = useAskCopilot();
  const run = () => ask.mutate({ question: DEMO_SAMPLES.question }, { onSuccess: onDone });
  return (
    <StepLayout
      sample={<Quote>{DEMO_SAMPLES.question}</Quote>}
      run={<RunButton onClick={run} busy={ask.isPending} label="Run: ask the Copilot" />}
    >
      {ask.isPending && <Spinner size="sm" label="Working out the answer" />}
      {ask.isError && <QueryError error={ask.error} message="The Copilot could not answer." onRetry={run} />}
      {ask.data && (
        <div data-testid="demo-copilot-result">
          <CopilotAnswer answer={ask.data} />
        </div>
      )}
      {ask.isIdle && <NotRunYet />}
    </StepLayout>
  );
}

export function SearchDemoStep({ onDone }: DemoStepProps) {
  const [q, setQ] = useState('');
  const search = useSearch(q, 5);
  const run = () => (q ? void search.refetch() : setQ(DEMO_SAMPLES.search));
  useDoneWhen(q !== '' && search.isSuccess, onDone);
  return (
    <StepLayout
      sample={<Quote>{DEMO_SAMPLES.search}</Quote>}
      run={<RunButton onClick={run} busy={search.isFetching} label="Run: search" />}
    >
      {q ? (
        <QueryState query={search} loadingLabel="Searching" errorMessage="The search failed." compact>
          {(data) =>
            data.results.length === 0 ? (
              <p role="status" className="text-sm text-muted-foreground">
                Nothing found.
              </p>
            ) : (
              <ol aria-label="Ranked results" className="flex flex-col gap-2">
                {data.results.map((r) => (
                  <li key={`${r.type}-${r.id}`} className="flex min-w-0 items-start gap-2 text-sm">
                    <Badge variant="primary">{SEARCH_RESULT_TYPE_LABELS[r.type]}</Badge>
                    <span className="flex min-w-0 flex-col">
                      <Link to={r.href} className="break-words font-medium text-primary underline underline-offset-2">
                        {r.title}
                      </Link>
                      {r.subtitle && <span className="break-words text-xs text-muted-foreground">{r.subtitle}</span>}
                    </span>
                    <span className="ml-auto shrink-0 text-xs tabular-nums text-muted-foreground">
                      score {formatNumber(r.score.toFixed(2))}
                    </span>
                  </li>
                ))}
              </ol>
            )
          }
        </QueryState>
      ) : (
        <NotRunYet />
      )}
    </StepLayout>
  );
}

const SUGGESTION_KINDS = [
  { key: 'categories', label: 'Category' },
  { key: 'vendors', label: 'Vendor' },
  { key: 'departments', label: 'Department' },
] as const;

export function SmartFormDemoStep({ onDone }: DemoStepProps) {
  const [ran, setRan] = useState(false);
  const suggestions = useQuery({ ...requestSuggestionsQueryOptions({ text: DEMO_SAMPLES.description }), enabled: ran });
  useDoneWhen(ran && suggestions.isSuccess, onDone);
  return (
    <StepLayout
      sample={<Quote>{DEMO_SAMPLES.description}</Quote>}
      run={
        <RunButton
          onClick={() => (ran ? void suggestions.refetch() : setRan(true))}
          busy={suggestions.isFetching}
          label="Run: suggest"
        />
      }
    >
      {ran ? (
        <QueryState query={suggestions} loadingLabel="Suggesting" errorMessage="No suggestions could be made." compact>
          {(data) => (
            <div className="flex flex-col gap-3" data-testid="demo-smart-form-result">
              <p className="text-xs text-muted-foreground">
                Learned from {plural(data.trainedOn, 'past request')} of your organization.
              </p>
              {SUGGESTION_KINDS.map((kind) => (
                <div key={kind.key}>
                  <p className="text-sm font-medium">{kind.label}</p>
                  {data[kind.key].length === 0 ? (
                    <p className="text-sm text-muted-foreground">Nothing to suggest yet.</p>
                  ) : (
                    <ul className="flex flex-wrap gap-1.5">
                      {data[kind.key].map((s) => (
                        <li key={s.id}>
                          <Badge variant="outline">
                            {s.name} · {formatPercent(s.probability * 100, 0)}
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              ))}
            </div>
          )}
        </QueryState>
      ) : (
        <NotRunYet />
      )}
    </StepLayout>
  );
}

export function FindingsDemoStep({ onDone }: DemoStepProps) {
  const [ran, setRan] = useState(false);
  const findings = useQuery({ ...findingsQueryOptions({ status: 'open', months: 12 }), enabled: ran });
  useDoneWhen(ran && findings.isSuccess, onDone);
  return (
    <StepLayout
      sample={
        <p className="text-sm">
          The requests you report on over the last 12 months, looked through for outliers, duplicates, split purchases,
          odd timing and Benford deviations.
        </p>
      }
      run={
        <RunButton
          onClick={() => (ran ? void findings.refetch() : setRan(true))}
          busy={findings.isFetching}
          label="Run: look for findings"
        />
      }
    >
      {ran ? (
        <QueryState
          query={findings}
          loadingLabel="Looking for findings"
          errorMessage="The findings could not be computed."
          compact
        >
          {(data) => (
            <div className="flex flex-col gap-3" data-testid="demo-findings-result">
              <p className="text-sm">
                {plural(data.items.length, 'open finding')} among {plural(data.requestsExamined, 'request')} examined.
              </p>
              <ul className="flex flex-wrap gap-1.5" aria-label="Findings by kind">
                {FINDING_KIND_VALUES.map((kind) => (
                  <li key={kind}>
                    <Badge variant="outline">
                      {FINDING_KIND_LABELS[kind]}: {formatNumber(data.counts[kind] ?? 0)}
                    </Badge>
                  </li>
                ))}
              </ul>
              <ul className="flex flex-col gap-2">
                {data.items.slice(0, 3).map((f) => (
                  <li key={f.key} className="text-sm">
                    <p className="font-medium">{f.title}</p>
                    <p className="text-muted-foreground">{f.detail}</p>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </QueryState>
      ) : (
        <NotRunYet />
      )}
    </StepLayout>
  );
}

export function ForecastsDemoStep({ onDone }: DemoStepProps) {
  const [ran, setRan] = useState(false);
  const forecasts = useQuery({ ...forecastsQueryOptions(), enabled: ran });
  useDoneWhen(ran && forecasts.isSuccess, onDone);
  return (
    <StepLayout
      sample={<p className="text-sm">Every budget line in force, with the monthly history of what it counts.</p>}
      run={
        <RunButton
          onClick={() => (ran ? void forecasts.refetch() : setRan(true))}
          busy={forecasts.isFetching}
          label="Run: forecast"
        />
      }
    >
      {ran ? (
        <QueryState
          query={forecasts}
          loadingLabel="Forecasting"
          errorMessage="The forecasts could not be computed."
          compact
        >
          {(data) => {
            const lines = [...data.lines]
              .sort((a, b) => Number(b.forecastPercent) - Number(a.forecastPercent))
              .slice(0, 3);
            return (
              <div className="flex flex-col gap-3" data-testid="demo-forecasts-result">
                <p className="text-sm">
                  {plural(data.lines.length, 'budget line')} forecast; backtest error (MAPE):{' '}
                  {data.backtest.mape === null ? 'not measurable yet' : formatPercent(data.backtest.mape.toFixed(1))}.
                </p>
                {lines.length > 0 && (
                  <p className="text-sm font-medium">Closest to their budget by the end of the period:</p>
                )}
                <ul className="flex flex-col gap-2">
                  {lines.map((l) => (
                    <li key={l.id} className="text-sm">
                      <p className="font-medium">
                        {l.label}{' '}
                        <span className="font-normal text-muted-foreground">
                          ({l.organizationName}, {l.periodLabel})
                        </span>
                      </p>
                      <p className="text-muted-foreground">
                        {formatMoney(l.forecast, l.currency)} forecast of {formatMoney(l.budget, l.currency)} (
                        {formatPercent(l.forecastPercent)})
                        {l.overrunDate ? `, over budget from ${formatDate(l.overrunDate)}` : ''}
                      </p>
                    </li>
                  ))}
                </ul>
              </div>
            );
          }}
        </QueryState>
      ) : (
        <NotRunYet />
      )}
    </StepLayout>
  );
}

export function CoachingDemoStep({ onDone }: DemoStepProps) {
  const [ran, setRan] = useState(false);
  const coaching = useQuery({ ...coachingQueryOptions(), enabled: ran });
  useDoneWhen(ran && coaching.isSuccess, onDone);
  return (
    <StepLayout
      sample={
        <p className="text-sm">
          Your own requests of the last 12 months: what was flagged, what came back and why, your spend beside your
          department.
        </p>
      }
      run={
        <RunButton
          onClick={() => (ran ? void coaching.refetch() : setRan(true))}
          busy={coaching.isFetching}
          label="Run: coach me"
        />
      }
    >
      {ran ? (
        <QueryState query={coaching} loadingLabel="Coaching" errorMessage="The coaching could not be prepared." compact>
          {(data) => (
            <div className="flex flex-col gap-3" data-testid="demo-coaching-result">
              <Facts
                rows={[
                  ['My spend', formatMoney(data.spend.mine, data.spend.currency)],
                  [
                    'Department median',
                    data.spend.departmentMedian === null
                      ? data.spend.departmentMedianWithheld === 'no_department'
                        ? 'No department'
                        : 'Not shown: too few colleagues'
                      : formatMoney(data.spend.departmentMedian, data.spend.currency),
                  ],
                  ['Findings', formatNumber(data.findings.length)],
                  ['Returned', formatNumber(data.returned.length)],
                ]}
              />
              {data.tips.length > 0 && (
                <ul className="flex list-disc flex-col gap-1 pl-5 text-sm">
                  {data.tips.slice(0, 3).map((t) => (
                    <li key={t.title}>
                      <span className="font-medium">{t.title}</span>: {t.body}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </QueryState>
      ) : (
        <NotRunYet />
      )}
    </StepLayout>
  );
}
