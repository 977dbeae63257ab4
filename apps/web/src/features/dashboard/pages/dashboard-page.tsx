import { AlertTriangle, ArrowDownRight, ArrowRight, ArrowUpRight, CheckSquare, Clock, FileText, Gauge, Minus, PlusCircle, Timer, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { REQUEST_STATUS_LABELS, type RequestStatus } from '@outlay/contracts/requests';
import type { ActivityItem, DashboardAlert, DashboardKpis, DashboardMine, DashboardQueue, DashboardResponse } from '@outlay/contracts/dashboard';
import { RoleBadge } from '@/components/status-badges';
import { RequestStatusBadge } from '@/components/request-detail/request-status-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { Alert } from '@/components/ui/alert';
import { formatDateTime, formatMoney, greeting } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useAuth } from '@/features/auth/api/current-user';
import { useActivity, useDashboard } from '../api/dashboard';
import { useDashboardLive } from '../api/use-dashboard-live';
import { SpendChart } from '@/components/charts/spend-chart';

/** / and /real-time-monitoring: what the caller's role allows, from GET /api/dashboard, updated live. */
export default function DashboardPage() {
  const { user } = useAuth();
  const dashboard = useDashboard();
  const live = useDashboardLive();
  if (!user) return null;
  const d = dashboard.data;
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <section aria-labelledby="greeting" className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 id="greeting" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            {greeting()}, {user.firstName}
          </h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            Signed in as <RoleBadge role={user.role} />
            {d?.kpis ? <span>· Figures for {d.kpis.scopeLabel}, in {d.currency}</span> : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <QuickLink href="/new-request" icon={<PlusCircle className="size-4" aria-hidden="true" />}>
            New request
          </QuickLink>
          {d?.queue ? (
            <QuickLink href="/approvals" icon={<CheckSquare className="size-4" aria-hidden="true" />}>
              Approvals
            </QuickLink>
          ) : null}
        </div>
      </section>

      {dashboard.isPending ? (
        <div className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner label="Loading your dashboard" />
        </div>
      ) : dashboard.isError ? (
        <Alert variant="danger" role="alert">
          <AlertTriangle aria-hidden="true" />
          <span>The dashboard could not be loaded: {dashboard.error.message}</span>
        </Alert>
      ) : d ? (
        <DashboardBody data={d} connected={live.connected} announcement={live.announcement} />
      ) : null}
    </div>
  );
}

function QuickLink({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="inline-flex items-center gap-2 rounded-md border bg-card px-3 py-2 text-sm font-medium shadow-sm transition hover:border-blue-300 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-ring"
    >
      {icon}
      {children}
    </Link>
  );
}

function DashboardBody({ data, connected, announcement }: { data: DashboardResponse; connected: boolean; announcement: string }) {
  return (
    <>
      {data.kpis ? <KpiCards kpis={data.kpis} currency={data.currency} /> : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          {data.spendByMonth ? (
            <Card>
              <CardHeader>
                <CardTitle>Spend by month</CardTitle>
                <CardDescription>Approved and paid requests by decision month, last 12 months, {data.currency}</CardDescription>
              </CardHeader>
              <CardContent>
                <SpendChart data={data.spendByMonth} currency={data.currency} title="Spend by month" />
              </CardContent>
            </Card>
          ) : null}
          <div className="grid gap-6 md:grid-cols-2">
            {data.queue ? <QueueCard queue={data.queue} /> : null}
            {data.mine ? <MineCard mine={data.mine} currency={data.currency} /> : null}
            {data.byCategory ? <CategoryCard items={data.byCategory} currency={data.currency} /> : null}
            {data.kpis ? <BudgetCard kpis={data.kpis} /> : null}
          </div>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <AlertsCard alerts={data.alerts} />
          <ActivityCard connected={connected} announcement={announcement} />
        </div>
      </div>
    </>
  );
}

// --- KPIs ----------------------------------------------------------------------------------------

function KpiCard({ title, value, detail, icon, testId }: { title: string; value: ReactNode; detail?: ReactNode; icon: ReactNode; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex flex-col gap-1 p-4">
        <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
          <h2 className="font-medium">{title}</h2>
          <span className="text-blue-700" aria-hidden="true">
            {icon}
          </span>
        </div>
        <p className="text-xl font-semibold tabular-nums sm:text-2xl" data-testid={`${testId}-value`}>
          {value}
        </p>
        {detail ? <div className="text-xs text-muted-foreground">{detail}</div> : null}
      </CardContent>
    </Card>
  );
}

function Trend({ percent }: { percent: string | null }) {
  if (percent === null) return <span>No spend last month to compare</span>;
  const n = Number(percent);
  const Icon = n > 0 ? ArrowUpRight : n < 0 ? ArrowDownRight : Minus;
  const words = n > 0 ? `up ${percent}%` : n < 0 ? `down ${percent.replace('-', '')}%` : 'unchanged';
  return (
    <span className={cn('inline-flex items-center gap-1 font-medium', n > 0 ? 'text-amber-800' : n < 0 ? 'text-emerald-800' : 'text-slate-700')}>
      <Icon className="size-3.5" aria-hidden="true" />
      {words} on last month
    </span>
  );
}

function KpiCards({ kpis, currency }: { kpis: DashboardKpis; currency: string }) {
  return (
    <section aria-label="Key figures" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-5">
      <KpiCard
        testId="kpi-spend"
        title="Spend this month"
        icon={<Wallet className="size-4" />}
        value={formatMoney(kpis.spendThisMonth, currency)}
        detail={
          <div className="flex flex-col">
            <Trend percent={kpis.spendChangePercent} />
            <span>Last month {formatMoney(kpis.spendLastMonth, currency)}</span>
          </div>
        }
      />
      <KpiCard
        testId="kpi-pending"
        title="Pending value"
        icon={<Clock className="size-4" />}
        value={formatMoney(kpis.pendingValue, currency)}
        detail={`${kpis.pendingCount} ${kpis.pendingCount === 1 ? 'request' : 'requests'} awaiting a decision`}
      />
      <KpiCard
        testId="kpi-budget"
        title="Budget burn"
        icon={<Gauge className="size-4" />}
        value={kpis.budget.percent === null ? 'No budget' : `${kpis.budget.percent}%`}
        detail={
          kpis.budget.linesInForce === 0
            ? 'No budget lines in force today'
            : `${formatMoney(kpis.budget.consumed, currency)} of ${formatMoney(kpis.budget.amount, currency)} · ${kpis.budget.linesInForce} lines`
        }
      />
      <KpiCard
        testId="kpi-overruns"
        title="Overruns pending"
        icon={<AlertTriangle className="size-4" />}
        value={kpis.overrunsPending}
        detail="Requests over budget awaiting finance"
      />
      <KpiCard
        testId="kpi-cycle"
        title="Approval cycle time"
        icon={<Timer className="size-4" />}
        value={kpis.avgCycleHours === null ? '—' : formatHours(kpis.avgCycleHours)}
        detail={kpis.cycleSample ? `Submission to decision, ${kpis.cycleSample} decisions in 30 days` : 'No decisions in the last 30 days'}
      />
    </section>
  );
}

function formatHours(hours: string): string {
  const h = Number(hours);
  if (h < 48) return `${hours} h`;
  return `${(h / 24).toFixed(1)} days`;
}

// --- cards -------------------------------------------------------------------------------------

function CardLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1 text-sm font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-ring">
      {children}
      <ArrowRight className="size-3.5" aria-hidden="true" />
    </Link>
  );
}

function QueueCard({ queue }: { queue: DashboardQueue }) {
  return (
    <Card data-testid="queue-card">
      <CardHeader>
        <CardTitle>My approval queue</CardTitle>
        <CardDescription>Requests waiting for your decision</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-3 gap-2 text-center">
          <Stat label="Waiting" value={queue.open} />
          <Stat label="Overdue" value={queue.overdue} tone={queue.overdue ? 'danger' : undefined} />
          <Stat label="Due soon" value={queue.dueSoon} tone={queue.dueSoon ? 'warning' : undefined} />
        </dl>
        {queue.oldest ? (
          <p className="text-sm text-muted-foreground">
            Oldest: <span className="font-medium text-foreground">{queue.oldest.reference}</span> {queue.oldest.title}, waiting since{' '}
            {formatDateTime(queue.oldest.waitingSince)}
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">Nothing is waiting for you.</p>
        )}
        <CardLink href="/approvals">Open approvals</CardLink>
      </CardContent>
    </Card>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: 'danger' | 'warning' }) {
  return (
    <div className={cn('rounded-md bg-muted px-2 py-3', tone === 'danger' && 'bg-red-50 text-red-900', tone === 'warning' && 'bg-amber-50 text-amber-900')}>
      <dt className="text-xs">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

const STATUS_ORDER: RequestStatus[] = ['draft', 'pending', 'info_requested', 'approved', 'paid', 'rejected', 'cancelled'];

function MineCard({ mine, currency }: { mine: DashboardMine; currency: string }) {
  const byStatus = new Map(mine.byStatus.map((s) => [s.status, s]));
  return (
    <Card data-testid="mine-card">
      <CardHeader>
        <CardTitle>My requests</CardTitle>
        <CardDescription>
          {mine.total} {mine.total === 1 ? 'request' : 'requests'} raised by you
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-col gap-1 text-sm">
          {STATUS_ORDER.filter((s) => byStatus.has(s)).map((s) => (
            <li key={s} className="flex items-center justify-between gap-2">
              <span className="flex items-center gap-2">
                <RequestStatusBadge status={s} />
                <span className="tabular-nums">{byStatus.get(s)!.count}</span>
              </span>
              <span className="tabular-nums text-muted-foreground">{formatMoney(byStatus.get(s)!.amount, currency)}</span>
            </li>
          ))}
          {mine.total === 0 ? <li className="text-muted-foreground">You have not raised a request yet.</li> : null}
        </ul>
        {mine.recentDecisions.length ? (
          <div className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold">Latest decisions on your requests</h3>
            <ul className="flex flex-col gap-2 text-sm">
              {mine.recentDecisions.map((dec) => (
                <li key={`${dec.requestId}-${dec.decidedAt}`} className="flex flex-col rounded-md border px-3 py-2">
                  <span>
                    <span className="font-medium">{dec.reference}</span> {dec.title}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {DECISION_WORDS[dec.decision]} {dec.stepName ? `at “${dec.stepName}”` : ''} by {dec.decidedBy ?? 'Outlay'} ·{' '}
                    {formatDateTime(dec.decidedAt)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <CardLink href="/requests">Open my requests</CardLink>
      </CardContent>
    </Card>
  );
}

const DECISION_WORDS = { approved: 'Approved', rejected: 'Rejected', info_requested: 'Information requested' } as const;

function CategoryCard({ items, currency }: { items: DashboardResponse['byCategory'] & object; currency: string }) {
  const max = Math.max(...items.map((i) => Number(i.amount)), 0);
  return (
    <Card data-testid="category-card">
      <CardHeader>
        <CardTitle>Top categories this month</CardTitle>
        <CardDescription>Approved and paid, {currency}</CardDescription>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing approved yet this month.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {items.map((c) => (
              <li key={c.categoryId ?? 'none'} className="flex flex-col gap-1 text-sm">
                <div className="flex justify-between gap-2">
                  <span className="truncate">{c.name}</span>
                  <span className="tabular-nums">{formatMoney(c.amount, currency)}</span>
                </div>
                <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
                  <div className="h-2 rounded-full bg-blue-600" style={{ width: `${max ? (Number(c.amount) / max) * 100 : 0}%` }} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function BudgetCard({ kpis }: { kpis: DashboardKpis }) {
  const lines = kpis.budget.lines;
  return (
    <Card data-testid="budget-card">
      <CardHeader>
        <CardTitle>Budget lines in force</CardTitle>
        <CardDescription>Committed and actual against each line, highest use first</CardDescription>
      </CardHeader>
      <CardContent>
        {lines.length === 0 ? (
          <p className="text-sm text-muted-foreground">No budget line covers today in {kpis.scopeLabel}.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {lines.map((l) => {
              const pct = Number(l.percent);
              return (
                <li key={l.id} className="flex flex-col gap-1 text-sm">
                  <div className="flex justify-between gap-2">
                    <span className="truncate">{l.label}</span>
                    <span className="tabular-nums">{l.percent}%</span>
                  </div>
                  <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
                    <div
                      className={cn('h-2 rounded-full', pct >= 100 ? 'bg-red-600' : pct >= 80 ? 'bg-amber-500' : 'bg-emerald-600')}
                      style={{ width: `${Math.min(pct, 100)}%` }}
                    />
                  </div>
                  <span className="text-xs text-muted-foreground">
                    {formatMoney(l.consumed, l.currency)} of {formatMoney(l.amount, l.currency)}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function AlertsCard({ alerts }: { alerts: DashboardAlert[] }) {
  return (
    <Card data-testid="alerts-card">
      <CardHeader>
        <CardTitle>Alerts</CardTitle>
      </CardHeader>
      <CardContent>
        {alerts.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing needs your attention.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {alerts.map((a, i) => (
              <li
                key={`${a.kind}-${i}`}
                className={cn(
                  'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
                  a.severity === 'critical' ? 'border-red-200 bg-red-50 text-red-900' : a.severity === 'warning' ? 'border-amber-200 bg-amber-50 text-amber-900' : '',
                )}
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span className="flex flex-col gap-1">
                  {a.message}
                  {a.link ? (
                    <Link href={a.link} className="font-medium underline">
                      Review
                    </Link>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ActivityCard({ connected, announcement }: { connected: boolean; announcement: string }) {
  const feed = useActivity();
  return (
    <Card data-testid="activity-card">
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>Live activity</CardTitle>
          {connected ? (
            <Badge variant="success" data-testid="live-indicator">
              <span className="mr-1 inline-block size-2 animate-pulse rounded-full bg-emerald-600" aria-hidden="true" />
              Live
            </Badge>
          ) : (
            <Badge variant="default" data-testid="live-indicator">
              Connecting…
            </Badge>
          )}
        </div>
        <CardDescription>What is happening on requests you can see</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="sr-only" aria-live="polite" data-testid="activity-announcer">
          {announcement}
        </p>
        {feed.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading activity" />
          </div>
        ) : feed.isError ? (
          <p className="text-sm text-red-700">{feed.error.message}</p>
        ) : feed.data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No activity yet.</p>
        ) : (
          <ol className="flex flex-col gap-3" data-testid="activity-feed">
            {feed.data.items.map((item) => (
              <ActivityRow key={item.id} item={item} />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function ActivityRow({ item }: { item: ActivityItem }) {
  return (
    <li className="flex gap-3 text-sm" data-testid="activity-item">
      <FileText className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="flex min-w-0 flex-col">
        <span className="break-words">{item.text}</span>
        <span className="text-xs text-muted-foreground">
          {formatDateTime(item.at)} · {formatMoney(item.amount, item.currency)} · {REQUEST_STATUS_LABELS[item.status]}
        </span>
      </div>
    </li>
  );
}
