import { Route, Scale } from 'lucide-react';
import { useSearchParams } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/lib/current-user';
import { useOrganizationOptions } from '@/features/organizations';
import { useWorkflows } from '../api/workflows';
import { AutoApprovalRulesCard } from '../components/auto-approval-rules-card';
import { DelegationsCard } from '../components/delegations-card';
import { RequestLookup } from '../components/request-lookup';
import { RouteExplanationCard } from '../components/route-explanation';

/** How balancing works, with the steps that use it (readable by workflow managers). */
function BalancingCard({ canReadWorkflows }: { canReadWorkflows: boolean }) {
  const workflows = useWorkflows(undefined, canReadWorkflows);
  const balanced = (workflows.data ?? []).flatMap((w) =>
    w.steps.filter((s) => s.balance).map((s) => ({ workflow: w, step: s })),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Scale className="size-5 text-muted-foreground" aria-hidden="true" />
          Balancing
        </CardTitle>
        <CardDescription>
          On an “any one of” step marked for balancing, the item goes only to the candidate with the fewest open
          approvals at that moment, instead of to all of them. Delegations and segregation of duties still apply.
        </CardDescription>
      </CardHeader>
      {canReadWorkflows && workflows.data && (
        <CardContent>
          {balanced.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              No step balances its approvers yet; turn it on per step in the Workflow Builder.
            </p>
          ) : (
            <ul className="flex flex-col gap-1 text-sm" aria-label="Balanced steps">
              {balanced.map(({ workflow, step }) => (
                <li key={step.id}>
                  <span className="font-medium">{step.name}</span>{' '}
                  <span className="text-muted-foreground">
                    in {workflow.name} ({workflow.organizationName})
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      )}
    </Card>
  );
}

/** /smart-approval-routing: why a request took its route, out-of-office delegation, auto-approval, balancing. */
export default function SmartApprovalRoutingPage() {
  const { user } = useAuth();
  const permissions = user?.permissions ?? [];
  const canManageWorkflows = permissions.includes('workflows.manage');
  const canManageApprovals = permissions.includes('approvals.manage');
  const withScope = permissions.includes('requests.read.scope');
  const [params, setParams] = useSearchParams();
  const selected = params.get('request');
  const organizations = useOrganizationOptions();
  const orgs = (organizations.data ?? [])
    .filter((o) => o.active)
    .map((o) => ({ id: o.id, name: o.name, currency: o.currency }));

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Smart Approval Routing"
        description="Why a request took its route, who approves while someone is away, which low-risk requests skip the route, and how long decisions take."
      />
      <section aria-labelledby="route-heading" className="flex flex-col gap-3">
        <h2 id="route-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
          <Route className="size-5 text-muted-foreground" aria-hidden="true" />
          Route explanation
        </h2>
        <div className="grid items-start gap-4 lg:grid-cols-[20rem_minmax(0,1fr)] [&>*]:min-w-0">
          <Card className="p-4">
            <RequestLookup
              selectedId={selected}
              withScope={withScope}
              onSelect={(id) =>
                setParams(
                  (prev) => {
                    const next = new URLSearchParams(prev);
                    next.set('request', id);
                    return next;
                  },
                  { replace: true },
                )
              }
            />
          </Card>
          {selected ? (
            <RouteExplanationCard key={selected} requestId={selected} />
          ) : (
            <Card className="flex min-h-40 items-center justify-center p-6 text-center text-sm text-muted-foreground">
              Choose a request to see the workflow that matched, every approver and why, and the predicted time to a
              decision.
            </Card>
          )}
        </div>
      </section>
      <div className="grid items-start gap-4 xl:grid-cols-2 [&>*]:min-w-0">
        <DelegationsCard canManage={canManageApprovals} />
        <BalancingCard canReadWorkflows={canManageWorkflows} />
      </div>
      {canManageWorkflows && <AutoApprovalRulesCard organizations={orgs} />}
    </div>
  );
}
