import { GitBranch, Pencil, Plus, Route, Scale, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { RELATIVE_ROLE_LABELS, STEP_MODE_LABELS, type Workflow } from '@outlay/contracts/workflows';
import { QueryState } from '@/components/query-state';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { RouteLink } from '@/components/route-link';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { useOrganizationOptions } from '@/features/organizations';
import { formatDateTime, formatMoney, plural, roleLabel } from '@/lib/format';
import { useDeleteWorkflow, useWorkflows } from '../api/workflows';
import { WorkflowEditor } from '../components/workflow-editor';

const ALL = '__all';

function conditionsText(w: Workflow, currency: string | undefined): string[] {
  const c = w.conditions;
  const parts: string[] = [];
  if (c.minAmount && c.maxAmount)
    parts.push(`${formatMoney(c.minAmount, currency)} to ${formatMoney(c.maxAmount, currency)}`);
  else if (c.minAmount) parts.push(`from ${formatMoney(c.minAmount, currency)}`);
  else if (c.maxAmount) parts.push(`up to ${formatMoney(c.maxAmount, currency)}`);
  if (c.categoryIds.length) parts.push(plural(c.categoryIds.length, 'category', 'categories'));
  if (c.departmentIds.length) parts.push(plural(c.departmentIds.length, 'department'));
  if (c.requesterRoles.length) parts.push(`requesters: ${c.requesterRoles.map(roleLabel).join(', ')}`);
  if (c.overBudget === true) parts.push('over budget only');
  if (c.overBudget === false) parts.push('within budget only');
  return parts.length ? parts : ['every request'];
}

/** One workflow; the edit and delete buttons only when `onEdit` and `onDelete` are given (workflows.manage). */
function WorkflowCard({
  workflow,
  currency,
  onEdit,
  onDelete,
}: {
  workflow: Workflow;
  currency: string | undefined;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  return (
    <Card data-testid="workflow-card">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 pb-3">
        <div className="min-w-0">
          <CardTitle className="text-base">{workflow.name}</CardTitle>
          <p className="text-xs text-muted-foreground">
            {workflow.organizationName} · priority {workflow.priority} · version {workflow.version} · changed{' '}
            {formatDateTime(workflow.updatedAt)}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge variant={workflow.active ? 'success' : 'default'}>{workflow.active ? 'Active' : 'Inactive'}</Badge>
          <Badge variant={workflow.inFlightCount > 0 ? 'primary' : 'outline'}>{workflow.inFlightCount} in flight</Badge>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {workflow.description && <p className="text-muted-foreground">{workflow.description}</p>}
        <p>
          <span className="font-medium">Applies to: </span>
          {conditionsText(workflow, currency).join(' · ')}
        </p>
        <ol className="flex flex-wrap items-center gap-1.5" aria-label={`Steps of ${workflow.name}`}>
          {workflow.steps.map((s, i) => (
            <li key={s.id} className="flex items-center gap-1.5">
              {i > 0 && <span aria-hidden="true">→</span>}
              <span className="rounded-md border bg-muted/40 px-2 py-1">
                <span className="font-medium">
                  {s.position}. {s.name}
                </span>
                <span className="text-xs text-muted-foreground">
                  {' '}
                  ·{' '}
                  {s.approverKind === 'user'
                    ? (s.approverUserName ?? 'named user')
                    : s.approverRole
                      ? RELATIVE_ROLE_LABELS[s.approverRole]
                      : ''}{' '}
                  · {STEP_MODE_LABELS[s.mode]} · {s.slaHours} h
                </span>
                {s.balance && <Scale className="ml-1 inline size-3 text-violet-700" aria-label="balanced" />}
              </span>
            </li>
          ))}
        </ol>
        {onEdit && onDelete && (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit ${workflow.name}`}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-destructive"
              onClick={onDelete}
              aria-label={`Delete ${workflow.name}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** /workflow-customization: the Workflow Builder (docs/product.md §3.4 "Approvals and workflows"). */
export default function WorkflowCustomizationPage() {
  const organizations = useOrganizationOptions();
  const orgs = (organizations.data ?? []).filter((o) => o.active);
  const [orgFilter, setOrgFilter] = useState<string | undefined>(undefined);
  const workflows = useWorkflows(orgFilter);
  const remove = useDeleteWorkflow();
  // The Settings menu's roles see the workflows; only workflows.manage builds or changes one.
  const canManage = useHolds('workflows.manage');
  const [editing, setEditing] = useState<Workflow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const currencyOf = (id: string) => orgs.find((o) => o.id === id)?.currency;

  if (editing && canManage) {
    return (
      <div>
        <PageHeader
          title="Workflow Builder"
          description="Match conditions and ordered approval steps, per organization."
        />
        <WorkflowEditor
          key={editing === 'new' ? 'new' : editing.id}
          workflow={editing === 'new' ? null : editing}
          organizations={orgs}
          defaultOrganizationId={orgFilter ?? orgs[0]?.id ?? ''}
          onDone={() => setEditing(null)}
        />
      </div>
    );
  }

  const items = workflows.data ?? [];
  const grouped = new Map<string, Workflow[]>();
  for (const w of [...items].sort(
    (a, b) => a.organizationName.localeCompare(b.organizationName) || a.priority - b.priority,
  )) {
    grouped.set(w.organizationName, [...(grouped.get(w.organizationName) ?? []), w]);
  }

  return (
    <div>
      <PageHeader
        title="Workflow Builder"
        description="Approval workflows per organization: which requests they match and who approves, step by step. Editing a workflow never changes requests already in flight."
        actions={
          <>
            <RouteLink path="/smart-approval-routing" icon={<Route aria-hidden="true" />} />
            {canManage && (
              <Button onClick={() => setEditing('new')} disabled={orgs.length === 0}>
                <Plus aria-hidden="true" />
                New workflow
              </Button>
            )}
          </>
        }
      />
      {!canManage && <ReadOnlyNote />}
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Select value={orgFilter ?? ALL} onValueChange={(v) => setOrgFilter(v === ALL ? undefined : v)}>
          <SelectTrigger aria-label="Organization" className="h-10 w-full sm:w-64">
            <SelectValue placeholder="All organizations" />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All organizations</SelectItem>
            {orgs.map((o) => (
              <SelectItem key={o.id} value={o.id}>
                {o.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {workflows.data && (
          <span className="text-sm text-muted-foreground" aria-live="polite">
            {plural(items.length, 'workflow')}
          </span>
        )}
      </div>

      <QueryState
        query={workflows}
        loadingLabel="Loading the workflows"
        errorMessage="Could not load the workflows."
        placeholder={
          <div className="grid gap-4">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-36 animate-pulse rounded-xl bg-slate-200" />
            ))}
          </div>
        }
      >
        {(all) =>
          all.length === 0 ? (
            <Card className="flex flex-col items-center gap-3 p-10 text-center">
              <GitBranch className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="font-medium">No workflows yet</p>
              <p className="max-w-md text-sm text-muted-foreground">
                Without a workflow, requests go to the organization’s finance manager.
                {canManage && ' Create one to route requests by amount, category, department or requester role.'}
              </p>
              {canManage && (
                <Button onClick={() => setEditing('new')} disabled={orgs.length === 0}>
                  <Plus aria-hidden="true" />
                  New workflow
                </Button>
              )}
            </Card>
          ) : (
            <div className="flex flex-col gap-6">
              {[...grouped.entries()].map(([orgName, list]) => (
                <section key={orgName} aria-label={orgName} className="flex flex-col gap-3">
                  <h2 className="text-lg font-semibold">{orgName}</h2>
                  {list.map((w) => (
                    <WorkflowCard
                      key={w.id}
                      workflow={w}
                      currency={currencyOf(w.organizationId)}
                      onEdit={canManage ? () => setEditing(w) : undefined}
                      onDelete={canManage ? () => setDeleting(w) : undefined}
                    />
                  ))}
                </section>
              ))}
            </div>
          )
        }
      </QueryState>

      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'workflow'}?`}
        description={
          deleting && deleting.inFlightCount > 0
            ? `${deleting.inFlightCount} request${deleting.inFlightCount === 1 ? ' is' : 's are'} still in flight on this workflow; the server refuses until they are decided or re-routed. Deactivate it instead to stop new requests.`
            : 'New requests will no longer be routed by it. Past requests keep their history.'
        }
        confirmLabel="Delete workflow"
        pendingLabel="Deleting…"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast({ title: 'Workflow deleted', description: deleting.name, variant: 'success' });
        }}
      />
    </div>
  );
}
