import { Eye, EyeOff, PartyPopper } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useToast } from '@/components/ui/use-toast';
import { formatDate } from '@/lib/format';
import { useDismissOnboarding } from '../api/dismiss-onboarding';
import { useOnboarding } from '../api/get-onboarding';
import { ProgressBar, StepItem, TRACK_TITLES } from '../components/onboarding-steps';

/** /onboarding-tutorials: the caller's checklist by role; steps tick themselves from real events. */
export default function OnboardingTutorialsPage() {
  const query = useOnboarding();
  const dismiss = useDismissOnboarding();
  const { toast } = useToast();
  const toggle = async (dismissed: boolean) => {
    await dismiss.mutateAsync(dismissed);
    toast({ title: dismissed ? 'Checklist hidden from the dashboard' : 'Checklist shown on the dashboard' });
  };
  return (
    <div className="mx-auto w-full max-w-4xl">
      <QueryState query={query} loadingLabel="Loading your checklist…" errorMessage="Could not load your checklist.">
        {(c) => (
          <>
            <PageHeader
              title="Onboarding Tutorials"
              description="Your first steps in Outlay, for the roles you hold. Each step ticks itself when you do it."
              actions={
                c.completed < c.total &&
                (c.dismissedAt ? (
                  <Button variant="outline" onClick={() => void toggle(false)} disabled={dismiss.isPending}>
                    <Eye aria-hidden="true" />
                    Show on dashboard
                  </Button>
                ) : (
                  <Button variant="outline" onClick={() => void toggle(true)} disabled={dismiss.isPending}>
                    <EyeOff aria-hidden="true" />
                    Hide from dashboard
                  </Button>
                ))
              }
            />
            <ProgressBar checklist={c} className="mb-6" />
            {c.completedAt && (
              <Alert variant="success" className="mb-6">
                <PartyPopper aria-hidden="true" />
                <span>
                  You finished the checklist on {formatDate(c.completedAt)}. The tutorials stay here whenever you need
                  them.
                </span>
              </Alert>
            )}
            <div className="grid gap-4 md:grid-cols-2">
              {c.tracks.map((track) => {
                const steps = c.steps.filter((s) => s.track === track);
                const done = steps.filter((s) => s.done).length;
                return (
                  <Card key={track} className={track === 'requester' ? 'md:col-span-2' : undefined}>
                    <CardHeader className="flex flex-row items-baseline justify-between gap-2 pb-0">
                      <CardTitle className="text-base">{TRACK_TITLES[track]}</CardTitle>
                      <span
                        className="text-sm tabular-nums text-muted-foreground"
                        aria-label={`${done} of ${steps.length} done`}
                      >
                        {done}/{steps.length}
                      </span>
                    </CardHeader>
                    <CardContent>
                      <ul className="divide-y">
                        {steps.map((s) => (
                          <StepItem key={s.key} step={s} />
                        ))}
                      </ul>
                    </CardContent>
                  </Card>
                );
              })}
            </div>
          </>
        )}
      </QueryState>
    </div>
  );
}
