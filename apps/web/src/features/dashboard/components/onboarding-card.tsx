import { Circle, ListChecks, X } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useDismissOnboarding, useOnboarding } from '@/features/onboarding';

/**
 * The onboarding checklist's next steps, until every step is done or the person hides it. It
 * stays out of the way: nothing while loading or when the checklist cannot be read.
 */
export function OnboardingCard() {
  const query = useOnboarding();
  const dismiss = useDismissOnboarding();
  const c = query.data;
  if (!c?.showOnDashboard) return null;
  const next = c.steps.filter((s) => !s.done).slice(0, 3);
  const percent = c.total === 0 ? 100 : Math.round((c.completed / c.total) * 100);
  return (
    <Card data-testid="onboarding-card">
      <CardHeader className="flex flex-row items-start justify-between gap-2 pb-2">
        <div className="min-w-0">
          <CardTitle className="flex items-center gap-2 text-base">
            <ListChecks className="size-5 text-primary" aria-hidden="true" />
            Getting started
          </CardTitle>
          <p className="mt-1 text-sm text-muted-foreground">A few first steps; each ticks itself when you do it.</p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Hide the checklist"
          disabled={dismiss.isPending}
          onClick={() => dismiss.mutate(true)}
        >
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex items-center gap-3">
          <div
            className="h-2 flex-1 overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-label="Onboarding progress"
            aria-valuemin={0}
            aria-valuemax={c.total}
            aria-valuenow={c.completed}
            aria-valuetext={`${c.completed} of ${c.total} steps done`}
          >
            <div className="h-full rounded-full bg-emerald-600" style={{ width: `${percent}%` }} />
          </div>
          <span className="shrink-0 text-sm tabular-nums text-muted-foreground">
            {c.completed} of {c.total} done
          </span>
        </div>
        <ul className="grid gap-2 sm:grid-cols-3">
          {next.map((s) => (
            <li key={s.key} className="flex items-start gap-2 rounded-md border p-3">
              <Circle className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <Link href={s.link} className="text-sm font-medium underline-offset-2 hover:underline">
                {s.title}
              </Link>
            </li>
          ))}
        </ul>
        <Link
          href="/onboarding-tutorials"
          className="text-sm font-medium text-primary underline-offset-2 hover:underline"
        >
          See the whole checklist
        </Link>
      </CardContent>
    </Card>
  );
}
