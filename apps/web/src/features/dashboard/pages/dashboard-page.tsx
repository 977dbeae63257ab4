import { CheckSquare, FileText, PlusCircle, Receipt } from 'lucide-react';
import { useDeferredValue, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { DashboardResponse } from '@outlay/contracts/dashboard';
import { findRoute, mayOpen } from '@/lib/route-catalogue';
import { ErrorBoundary } from '@/components/error-boundary';
import { QueryState } from '@/components/query-state';
import { SiblingScreens } from '@/components/sibling-screens';
import { RoleBadge } from '@/components/status-badges';
import { greeting } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useAuth } from '@/lib/current-user';
import { useOnboarding } from '@/features/onboarding';
import { useDashboard } from '../api/dashboard';
import { useDashboardLive } from '../api/use-dashboard-live';
import { ActivityCard } from '../components/activity-card';
import { AlertsCard } from '../components/alerts-card';
import { BudgetCard } from '../components/budget-card';
import { CategoryCard } from '../components/category-card';
import { KpiCards } from '../components/kpi-cards';
import { OnboardingCard } from '../components/onboarding-card';
import { MineCard } from '../components/mine-card';
import { QueueCard } from '../components/queue-card';
import { ScreenShortcuts } from '../components/screen-shortcuts';
import { SpendCard } from '../components/spend-card';

/** / and /real-time-monitoring: what the caller's role allows, from GET /api/dashboard, updated live. */
export default function DashboardPage() {
  const { user } = useAuth();
  const dashboard = useDashboard();
  const live = useDashboardLive();
  // Asked for at once, beside the figures, and the figures wait for its answer (usually the quicker one): a
  // checklist landing on top of figures already drawn pushes everything down under the reader's eyes.
  const onboarding = useOnboarding();
  // The cards are drawn in a transition: React builds them in slices of a few milliseconds, giving
  // the browser its turn between, instead of one long task that holds a slow phone's main thread.
  const d = useDeferredValue(dashboard.data);
  if (!user) return null;
  const figures = { ...dashboard, data: d, isLoading: dashboard.isLoading || onboarding.isPending };
  const opens = (path: string) => {
    const route = findRoute(path);
    return Boolean(route && mayOpen(route, user.permissions));
  };
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <section aria-labelledby="greeting" className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 id="greeting" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            {greeting()}, {user.firstName}
          </h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            Signed in as <RoleBadge role={user.role} />
            {d?.kpis ? (
              <span>
                · Figures for {d.kpis.scopeLabel}, in {d.currency}
              </span>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {opens('/new-request') ? (
            <QuickLink href="/new-request" icon={<PlusCircle className="size-4" aria-hidden="true" />}>
              New request
            </QuickLink>
          ) : null}
          {opens('/requests') ? (
            <QuickLink href="/requests" icon={<FileText className="size-4" aria-hidden="true" />}>
              My requests
            </QuickLink>
          ) : null}
          {opens('/expense-tracking') ? (
            <QuickLink href="/expense-tracking" icon={<Receipt className="size-4" aria-hidden="true" />}>
              Expense tracking
            </QuickLink>
          ) : null}
          {d?.queue ? (
            <QuickLink href="/approvals" icon={<CheckSquare className="size-4" aria-hidden="true" />}>
              Approvals
            </QuickLink>
          ) : null}
        </div>
      </section>

      <SiblingScreens />
      <ScreenShortcuts user={user} />

      <QueryState
        query={figures}
        loadingLabel="Loading your dashboard"
        errorMessage="The dashboard could not be loaded."
        className="min-h-40"
      >
        {(data) => (
          <>
            <ErrorBoundary panel="Getting started">
              <OnboardingCard />
            </ErrorBoundary>
            <DashboardBody data={data} connected={live.connected} announcement={live.announcement} />
          </>
        )}
      </QueryState>
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

/** Each card in its own boundary: one card failing to render leaves the others on screen. */
function DashboardBody({
  data,
  connected,
  announcement,
}: {
  data: DashboardResponse;
  connected: boolean;
  announcement: string;
}) {
  // A requester has one card here (their requests): it takes the row instead of half of it.
  const sideBySide = [data.queue, data.mine, data.byCategory, data.kpis].filter(Boolean).length > 1;
  return (
    <>
      {data.kpis ? (
        <ErrorBoundary panel="Key figures">
          <KpiCards kpis={data.kpis} currency={data.currency} />
        </ErrorBoundary>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          {data.spendByMonth ? (
            <ErrorBoundary panel="Spend by month">
              <SpendCard data={data.spendByMonth} currency={data.currency} />
            </ErrorBoundary>
          ) : null}
          {/* min-w-0 on each card: a grid item is at least as wide as its longest unbroken line (a truncated budget line's
              name counts in full), which pushed a phone's page sideways. */}
          <div className={cn('grid gap-6 [&>*]:min-w-0', sideBySide && 'md:grid-cols-2')}>
            {data.queue ? (
              <ErrorBoundary panel="My approval queue">
                <QueueCard queue={data.queue} />
              </ErrorBoundary>
            ) : null}
            {data.mine ? (
              <ErrorBoundary panel="My requests">
                <MineCard mine={data.mine} currency={data.currency} />
              </ErrorBoundary>
            ) : null}
            {data.byCategory ? (
              <ErrorBoundary panel="Top categories this month">
                <CategoryCard items={data.byCategory} currency={data.currency} />
              </ErrorBoundary>
            ) : null}
            {data.kpis ? (
              <ErrorBoundary panel="Budget lines in force">
                <BudgetCard kpis={data.kpis} />
              </ErrorBoundary>
            ) : null}
          </div>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <ErrorBoundary panel="Alerts">
            <AlertsCard alerts={data.alerts} />
          </ErrorBoundary>
          <ErrorBoundary panel="Live activity">
            <ActivityCard connected={connected} announcement={announcement} />
          </ErrorBoundary>
        </div>
      </div>
    </>
  );
}
