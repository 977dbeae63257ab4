import { ArrowLeft } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { workflowInput, type Workflow, type WorkflowForm, type WorkflowInput } from '@outlay/contracts/workflows';
import { REQUESTABLE_ROLES, ROLE_LABELS } from '@outlay/contracts/roles';
import {
  CheckboxGroupField,
  Form,
  FormFieldCheckbox,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  OptionalMoneyField,
  TriStateField,
  useVersionedEdit,
  useZodForm,
} from '@/components/form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { useCategoryOptions } from '@/features/categories';
import { useDepartmentOptions } from '@/features/organizations';
import { WORKFLOWS_URL } from '../api/keys';
import { fetchWorkflow, useCreateWorkflow, useUpdateWorkflow } from '../api/workflows';
import { NEW_STEP, StepList } from './step-list';
import { SimulatePanel } from './simulate-panel';
import { plural } from '@/lib/format';

export interface OrganizationChoice {
  id: string;
  name: string;
  currency: string;
}

function toForm(workflow: Workflow | null, organizationId: string): WorkflowForm {
  if (!workflow) {
    return {
      organizationId,
      name: '',
      description: '',
      priority: 100,
      active: true,
      conditions: {
        minAmount: null,
        maxAmount: null,
        categoryIds: [],
        departmentIds: [],
        overBudget: null,
        requesterRoles: [],
      },
      steps: [{ ...NEW_STEP, name: 'Manager approval' }],
    };
  }
  return {
    organizationId: workflow.organizationId,
    name: workflow.name,
    description: workflow.description ?? '',
    priority: workflow.priority,
    active: workflow.active,
    conditions: {
      minAmount: workflow.conditions.minAmount,
      maxAmount: workflow.conditions.maxAmount,
      categoryIds: workflow.conditions.categoryIds,
      departmentIds: workflow.conditions.departmentIds,
      overBudget: workflow.conditions.overBudget,
      requesterRoles: workflow.conditions.requesterRoles as WorkflowForm['conditions']['requesterRoles'],
    },
    steps: workflow.steps.map((s) => ({
      name: s.name,
      approverKind: s.approverKind,
      approverRole: s.approverRole,
      approverUserId: s.approverUserId,
      mode: s.mode,
      slaHours: s.slaHours,
      fallbackUserId: s.fallbackUserId,
      balance: s.balance,
    })),
  };
}

/** Create or edit one workflow: basics, match conditions, ordered steps, and a simulation of the draft. */
export function WorkflowEditor({
  workflow,
  organizations,
  defaultOrganizationId,
  onDone,
}: {
  workflow: Workflow | null;
  organizations: readonly OrganizationChoice[];
  defaultOrganizationId: string;
  onDone: (saved: Workflow | null) => void;
}) {
  const form = useZodForm(workflowInput, toForm(workflow, defaultOrganizationId));
  const create = useCreateWorkflow();
  const update = useUpdateWorkflow();
  const queryClient = useQueryClient();
  const load = useCallback(async () => {
    const fresh = await fetchWorkflow(workflow!.id);
    void queryClient.invalidateQueries({ queryKey: [WORKFLOWS_URL] });
    return fresh;
  }, [workflow, queryClient]);
  const toValues = useCallback((w: Workflow) => toForm(w, defaultOrganizationId), [defaultOrganizationId]);
  const versioned = useVersionedEdit({ record: workflow, form, load, toValues });
  const organizationId = form.watch('organizationId') || null;
  const org = organizations.find((o) => o.id === organizationId);
  const categories = useCategoryOptions();
  const departments = useDepartmentOptions(organizationId);
  const categoryChoices = (categories.data ?? []).filter(
    (c) => c.active && (!c.organizationId || c.organizationId === organizationId),
  );
  const departmentChoices = (departments.data ?? []).filter((d) => d.active);
  const names = useMemo(() => {
    const map: Record<string, string> = {};
    for (const s of workflow?.steps ?? []) {
      if (s.approverUserId && s.approverUserName) map[s.approverUserId] = s.approverUserName;
      if (s.fallbackUserId && s.fallbackUserName) map[s.fallbackUserId] = s.fallbackUserName;
    }
    return map;
  }, [workflow]);

  const getDraft = async (): Promise<WorkflowInput | null> => {
    const parsed = workflowInput.safeParse(form.getValues());
    if (parsed.success) return parsed.data;
    await form.trigger();
    return null;
  };

  const save = async (values: WorkflowInput) => {
    const saved = workflow
      ? await update.mutateAsync({ id: workflow.id, input: values, headers: versioned.headers() })
      : await create.mutateAsync(values);
    versioned.saved(saved);
    toast({
      title: workflow ? 'Workflow saved' : 'Workflow created',
      description: workflow
        ? `${saved.name} is now version ${saved.version}. Requests already in flight keep their route.`
        : `${saved.name} applies to new requests of ${saved.organizationName}.`,
      variant: 'success',
    });
    onDone(saved);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="ghost" onClick={() => onDone(null)}>
          <ArrowLeft aria-hidden="true" />
          Back to workflows
        </Button>
        <h2 className="text-xl font-semibold tracking-tight">
          {workflow ? `Edit “${workflow.name}”` : 'New workflow'}
        </h2>
        {workflow && workflow.inFlightCount > 0 && (
          <span className="text-sm text-muted-foreground">
            {plural(workflow.inFlightCount, 'request')} in flight keep their current route.
          </span>
        )}
      </div>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem] [&>*]:min-w-0">
        <Form
          form={form}
          onSubmit={save}
          onReload={workflow ? versioned.reload : undefined}
          aria-label={workflow ? `Edit ${workflow.name}` : 'New workflow'}
        >
          <Card>
            <CardHeader>
              <CardTitle>Basics</CardTitle>
              <CardDescription>
                Active workflows are tried by priority, lowest first; the first whose conditions all match routes the
                request.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <FormFieldSelect<WorkflowForm>
                name="organizationId"
                label="Organization"
                required
                options={organizations.map((o) => ({ value: o.id, label: o.name }))}
                disabled={Boolean(workflow)}
              />
              <FormFieldText<WorkflowForm> name="name" label="Name" required placeholder="e.g. Large IT purchases" />
              <FormFieldTextarea<WorkflowForm>
                name="description"
                label="Description"
                className="sm:col-span-2"
                rows={2}
              />
              <FormFieldText<WorkflowForm>
                name="priority"
                label="Priority"
                type="number"
                min={0}
                max={1000}
                hint="0 is tried first."
              />
              <FormFieldCheckbox<WorkflowForm>
                name="active"
                label="Active"
                description="Inactive workflows are kept but never chosen."
                className="self-center"
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Conditions</CardTitle>
              <CardDescription>
                Leave a condition empty to match anything. Amounts are in the organization’s currency
                {org ? ` (${org.currency})` : ''}.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <OptionalMoneyField<WorkflowForm>
                name="conditions.minAmount"
                label="Amount from"
                currency={org?.currency}
              />
              <OptionalMoneyField<WorkflowForm>
                name="conditions.maxAmount"
                label="Amount up to"
                currency={org?.currency}
              />
              <CheckboxGroupField<WorkflowForm>
                name="conditions.categoryIds"
                legend="Categories"
                options={categoryChoices.map((c) => ({ value: c.id, label: c.name }))}
                emptyText="any category"
              />
              <CheckboxGroupField<WorkflowForm>
                name="conditions.departmentIds"
                legend="Departments"
                options={departmentChoices.map((d) => ({ value: d.id, label: d.name }))}
                emptyText="any department"
              />
              <CheckboxGroupField<WorkflowForm>
                name="conditions.requesterRoles"
                legend="Requester roles"
                options={REQUESTABLE_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
                emptyText="any role"
              />
              <TriStateField<WorkflowForm>
                name="conditions.overBudget"
                label="Over budget"
                labels={{ either: 'Either', yes: 'Only over-budget requests', no: 'Only requests within budget' }}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Steps</CardTitle>
              <CardDescription>
                In order. Drag a step by its handle, or focus the handle and press Space, then the arrow keys; the arrow
                buttons move it too. Nobody ever approves their own request.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <StepList organizationId={organizationId} names={names} />
            </CardContent>
          </Card>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => onDone(null)} disabled={form.formState.isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? 'Saving…' : workflow ? 'Save workflow' : 'Create workflow'}
            </Button>
          </div>
        </Form>
        <div className="lg:sticky lg:top-4">
          <SimulatePanel
            key={organizationId ?? 'none'}
            organizationId={organizationId}
            orgCurrency={org?.currency ?? 'USD'}
            categories={categoryChoices}
            departments={departmentChoices}
            getDraft={getDraft}
          />
        </div>
      </div>
    </div>
  );
}
