import { Ban, CircleAlert, MessageSquareWarning, ShieldCheck } from 'lucide-react';
import { POLICY_ACTION_LABELS, type PolicyAction, type PolicyFindingView } from '@outlay/contracts/policies';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const ACTION_VARIANT: Record<PolicyAction, 'warning' | 'purple' | 'danger'> = {
  warn: 'warning',
  justify: 'purple',
  block: 'danger',
};

function PolicyActionBadge({ action }: { action: PolicyAction }) {
  return (
    <Badge variant={ACTION_VARIANT[action]}>{action === 'block' ? 'Blocked' : POLICY_ACTION_LABELS[action]}</Badge>
  );
}

const ICON: Record<PolicyAction, typeof Ban> = { warn: CircleAlert, justify: MessageSquareWarning, block: Ban };

/** Findings of the policy rules, in priority order, each with its action. */
export function PolicyFindingsList({
  findings,
  hasJustification,
  className,
}: {
  findings: readonly PolicyFindingView[];
  hasJustification?: boolean;
  className?: string;
}) {
  return (
    <section aria-label="Policy checks" className={cn('rounded-lg border p-4', className)}>
      <h2 className="mb-2 flex items-center gap-2 text-sm font-semibold">
        <ShieldCheck className="size-4" aria-hidden="true" />
        Policy checks
      </h2>
      {findings.length === 0 ? (
        <p className="text-sm text-muted-foreground">No policy findings for this request so far.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-live="polite">
          {findings.map((f) => {
            const Icon = ICON[f.action];
            return (
              <li
                key={`${f.ruleId}-${f.version}`}
                className={cn(
                  'flex items-start gap-2 rounded-md border p-2 text-sm',
                  f.action === 'block'
                    ? 'border-red-200 bg-red-50 text-red-950'
                    : f.action === 'justify'
                      ? 'border-violet-200 bg-violet-50 text-violet-950'
                      : 'border-amber-200 bg-amber-50 text-amber-950',
                )}
              >
                <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <span className="flex flex-wrap items-center gap-2">
                    <PolicyActionBadge action={f.action} />
                    <span className="font-medium">{f.ruleName}</span>
                  </span>
                  <span>{f.message}</span>
                  {f.action === 'justify' && !hasJustification && (
                    <span className="text-xs">Add a justification to submit.</span>
                  )}
                  {f.action === 'block' && <span className="text-xs">This request cannot be submitted as it is.</span>}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
