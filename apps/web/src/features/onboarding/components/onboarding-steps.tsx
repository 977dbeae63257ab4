import { CheckCircle2, Circle } from 'lucide-react';
import { Link } from 'wouter';
import type { HelpAudience } from '@outlay/contracts/tutorials';
import type { OnboardingChecklist, OnboardingStep } from '@outlay/contracts/onboarding';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';

export const TRACK_TITLES: Record<HelpAudience, string> = {
  requester: 'Getting started',
  approver: 'Approving',
  finance: 'Finance',
  admin: 'Administration',
};

export function ProgressBar({
  checklist,
  className,
}: {
  checklist: Pick<OnboardingChecklist, 'completed' | 'total'>;
  className?: string;
}) {
  const percent = checklist.total === 0 ? 100 : Math.round((checklist.completed / checklist.total) * 100);
  return (
    <div className={cn('flex items-center gap-3', className)}>
      <div
        className="h-2 flex-1 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Onboarding progress"
        aria-valuemin={0}
        aria-valuemax={checklist.total}
        aria-valuenow={checklist.completed}
        aria-valuetext={`${checklist.completed} of ${checklist.total} steps done`}
      >
        <div className="h-full rounded-full bg-emerald-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <span className="shrink-0 text-sm tabular-nums text-muted-foreground">
        {checklist.completed} of {checklist.total} done
      </span>
    </div>
  );
}

/** One step: done (with when) or open (with where to do it and the article that explains it). */
export function StepItem({ step, compact }: { step: OnboardingStep; compact?: boolean }) {
  return (
    <li className="flex gap-3 py-3" data-testid={`onboarding-step-${step.key}`} data-done={step.done}>
      {step.done ? (
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-700" aria-hidden="true" />
      ) : (
        <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1">
        <p className={cn('font-medium', step.done && 'text-muted-foreground line-through decoration-1')}>
          <span className="sr-only">{step.done ? 'Done: ' : 'To do: '}</span>
          {step.title}
        </p>
        {!compact && <p className="mt-0.5 text-sm text-muted-foreground">{step.description}</p>}
        <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {step.done ? (
            step.doneAt && <span className="text-muted-foreground">Done on {formatDate(step.doneAt)}</span>
          ) : (
            <Link href={step.link} className="font-medium text-primary underline-offset-2 hover:underline">
              {compact ? 'Start' : 'Go there'}
              <span className="sr-only">: {step.title}</span>
            </Link>
          )}
          {!compact && step.tutorialSlug && (
            <Link
              href={`/tutorials?article=${step.tutorialSlug}`}
              className="text-muted-foreground underline-offset-2 hover:underline"
            >
              How to
              <span className="sr-only">: {step.title}</span>
            </Link>
          )}
        </p>
      </div>
    </li>
  );
}
