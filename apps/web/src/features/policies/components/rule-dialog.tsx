import { TriangleAlert } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  POLICY_ACTION_LABELS,
  POLICY_ACTION_VALUES,
  POLICY_KIND_LABELS,
  POLICY_KIND_VALUES,
  type PolicyAction,
  type PolicyConditionGroup,
  type PolicyKind,
  type PolicyOptions,
  type PolicyRule,
  type PolicyRuleForm,
  policyRuleInput,
} from '@outlay/contracts/policies';
import {
  fieldErrorMessage,
  SelectField,
  TextField,
  useVersionedEdit,
  useZodForm,
  VersionConflictAlert,
} from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { isVersionConflict } from '@/lib/versions';
import { fetchPolicy, POLICIES_URL, useCreatePolicy, useUpdatePolicy } from '../api/policies';
import { ConditionGroupEditor } from './conditions-builder';

export const KIND_OPTIONS = POLICY_KIND_VALUES.map((value) => ({ value, label: POLICY_KIND_LABELS[value] }));
export const ACTION_OPTIONS = POLICY_ACTION_VALUES.map((value) => ({ value, label: POLICY_ACTION_LABELS[value] }));

export type RuleDraft = {
  organizationId: string;
  name: string;
  description: string;
  kind: PolicyKind;
  action: PolicyAction;
  priority: string;
  active: boolean;
  effectiveFrom: string;
  effectiveTo: string;
  categoryId: string;
  limit: string;
  above: string;
  vendorIds: string[];
  days: string;
  similarity: string;
  conditions: PolicyConditionGroup;
};

export function draftOf(rule: PolicyRule | null, kind: PolicyKind = 'category_limit_request'): RuleDraft {
  const p = rule?.params ?? {};
  return {
    organizationId: rule?.organizationId ?? '',
    name: rule?.name ?? '',
    description: rule?.description ?? '',
    kind: rule?.kind ?? kind,
    action: rule?.action ?? 'warn',
    priority: String(rule?.priority ?? 100),
    active: rule?.active ?? true,
    effectiveFrom: rule?.effectiveFrom ?? '',
    effectiveTo: rule?.effectiveTo ?? '',
    categoryId: p.categoryId ?? '',
    limit: p.limit ?? '',
    above: p.above ?? '',
    vendorIds: p.vendorIds ?? [],
    days: p.days !== undefined ? String(p.days) : rule ? '' : '7',
    similarity: p.similarity !== undefined ? String(p.similarity) : '0.5',
    conditions: rule?.conditions ?? { op: 'and', items: [] },
  };
}

/** The API body for a draft: only the settings its kind uses. */
export function inputOf(d: RuleDraft): PolicyRuleForm {
  const params: PolicyRuleForm['params'] = {};
  const days = d.days.trim() === '' ? undefined : Number(d.days);
  switch (d.kind) {
    case 'category_limit_request':
    case 'category_limit_month':
      params.limit = d.limit.trim().replace(/,/g, '') || undefined;
      params.categoryId = d.categoryId || null;
      break;
    case 'receipt_required':
      params.above = d.above.trim().replace(/,/g, '') || undefined;
      params.categoryId = d.categoryId || null;
      break;
    case 'blocked_vendor':
      params.vendorIds = d.vendorIds;
      break;
    case 'duplicate':
      params.days = days;
      if (d.similarity.trim() !== '') params.similarity = Number(d.similarity);
      break;
    case 'max_age':
      params.days = days;
      break;
    default:
      break;
  }
  return {
    organizationId: d.organizationId || null,
    name: d.name,
    description: d.description.trim() || null,
    kind: d.kind,
    action: d.action,
    priority: Number(d.priority) || 0,
    active: d.active,
    effectiveFrom: d.effectiveFrom || null,
    effectiveTo: d.effectiveTo || null,
    params,
    conditions: d.conditions.items.length > 0 ? d.conditions : null,
  };
}

/**
 * The form holds the draft as typed; on submit it becomes the API body and the contract's schema
 * checks it, so the server's rules and messages ("Enter the limit") show under the fields.
 */
const ruleForm = z.custom<RuleDraft>().transform(inputOf).pipe(policyRuleInput);

/** A message of the contract's schema for a path of the API body ("params.limit"). */
type FieldErrors = (path: string) => string | undefined;

/** The settings of one kind of rule. */
export function KindParams({
  draft,
  set,
  options,
  errorOf = () => undefined,
}: {
  draft: RuleDraft;
  set: (patch: Partial<RuleDraft>) => void;
  options: PolicyOptions | undefined;
  errorOf?: FieldErrors;
}) {
  const categories = (options?.categories ?? []).filter(
    (c) => !draft.organizationId || !c.organizationId || c.organizationId === draft.organizationId,
  );
  const vendors = (options?.vendors ?? []).filter(
    (v) => !draft.organizationId || v.organizationId === draft.organizationId,
  );
  const orgName = (id: string) => options?.organizations.find((o) => o.id === id)?.name ?? '';
  // Limits and receipt rules both narrow to one category, or apply to any.
  const categoryField = (
    <SelectField
      label="Category"
      value={draft.categoryId}
      placeholder="Any category"
      options={categories.map((c) => ({ value: c.id, label: c.name }))}
      onChange={(categoryId) => set({ categoryId })}
    />
  );
  switch (draft.kind) {
    case 'category_limit_request':
    case 'category_limit_month':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {categoryField}
          <TextField
            label={draft.kind === 'category_limit_request' ? 'Limit per request' : 'Limit per requester per month'}
            value={draft.limit}
            inputMode="decimal"
            required
            placeholder="150.00"
            hint="In the request organization's currency."
            error={errorOf('params.limit')}
            onChange={(limit) => set({ limit })}
          />
        </div>
      );
    case 'receipt_required':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {categoryField}
          <TextField
            label="Receipt required above"
            value={draft.above}
            inputMode="decimal"
            required
            placeholder="75.00"
            hint="In the request organization's currency."
            error={errorOf('params.above')}
            onChange={(above) => set({ above })}
          />
        </div>
      );
    case 'blocked_vendor':
      return (
        <fieldset className="flex max-h-56 flex-col gap-1 overflow-y-auto rounded-md border p-3 text-sm">
          <legend className="px-1 text-sm font-medium">Vendors blocked by this rule</legend>
          {vendors.length === 0 && <p className="text-muted-foreground">No vendors.</p>}
          {vendors.map((v) => (
            <label key={v.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={draft.vendorIds.includes(v.id)}
                onChange={(e) =>
                  set({
                    vendorIds: e.target.checked
                      ? [...draft.vendorIds, v.id]
                      : draft.vendorIds.filter((x) => x !== v.id),
                  })
                }
              />
              <span>
                {v.name}
                {!draft.organizationId && <span className="text-muted-foreground"> · {orgName(v.organizationId)}</span>}
                {v.status === 'blocked' && <span className="text-muted-foreground"> (vendor blocked)</span>}
              </span>
            </label>
          ))}
          {errorOf('params.vendorIds') && (
            <p className="text-xs text-destructive" role="alert">
              {errorOf('params.vendorIds')}
            </p>
          )}
        </fieldset>
      );
    case 'duplicate':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Within days"
            value={draft.days}
            inputMode="numeric"
            required
            error={errorOf('params.days')}
            onChange={(days) => set({ days })}
          />
          <TextField
            label="Similarity of title and description (0–1)"
            value={draft.similarity}
            inputMode="decimal"
            hint="Share of words in common (Jaccard); 0.5 by default."
            error={errorOf('params.similarity')}
            onChange={(similarity) => set({ similarity })}
          />
        </div>
      );
    case 'max_age':
      return (
        <TextField
          label="Maximum age in days"
          value={draft.days}
          inputMode="numeric"
          required
          error={errorOf('params.days')}
          onChange={(days) => set({ days })}
        />
      );
    case 'weekend_spend':
      return <p className="text-sm text-muted-foreground">Flags expenses dated on a Saturday or Sunday.</p>;
    case 'custom':
      return <p className="text-sm text-muted-foreground">A custom rule flags every request its conditions match.</p>;
  }
}

/** Create or edit a rule. `enhanced` adds priority, effective dates and the condition builder. */
export function RuleDialog({
  open,
  onOpenChange,
  rule,
  options,
  enhanced = false,
  initialKind,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  rule: PolicyRule | null;
  options: PolicyOptions | undefined;
  enhanced?: boolean;
  initialKind?: PolicyKind;
}) {
  const { toast } = useToast();
  const form = useZodForm(ruleForm, draftOf(rule, initialKind));
  const draft = form.watch();
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const create = useCreatePolicy();
  const update = useUpdatePolicy();
  const queryClient = useQueryClient();
  const load = useCallback(async () => {
    const fresh = await fetchPolicy(rule!.id);
    void queryClient.invalidateQueries({ queryKey: [POLICIES_URL] });
    return fresh;
  }, [rule, queryClient]);
  const apply = useCallback((fresh: PolicyRule) => form.reset(draftOf(fresh, initialKind)), [form, initialKind]);
  const versioned = useVersionedEdit({ record: rule, load, apply });
  const busy = create.isPending || update.isPending;
  const set = (patch: Partial<RuleDraft>) => {
    for (const [key, value] of Object.entries(patch))
      form.setValue(key as keyof RuleDraft, value as never, { shouldDirty: true });
    // After a refused submit, the messages follow the edits.
    if (form.formState.isSubmitted) void form.trigger();
  };
  const errorOf: FieldErrors = (path) => fieldErrorMessage(form.formState.errors, path);

  const submit = form.handleSubmit(async (input: PolicyRuleForm) => {
    setError(null);
    setConflict(false);
    try {
      const saved = rule
        ? await update.mutateAsync({ id: rule.id, input, headers: versioned.headers() })
        : await create.mutateAsync(input);
      versioned.saved(saved);
      toast({
        title: rule ? 'Rule saved' : 'Rule created',
        description: `${saved.name} is at version ${saved.version}.`,
      });
      onOpenChange(false);
    } catch (e) {
      setError(messageOf(e, 'Could not save the rule. Try again.'));
      setConflict(isVersionConflict(e));
    }
  });

  const kinds = enhanced ? KIND_OPTIONS : KIND_OPTIONS.filter((k) => k.value !== 'custom' || draft.kind === 'custom');
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{rule ? `Edit ${rule.name}` : 'New policy rule'}</DialogTitle>
          <DialogDescription>
            {rule
              ? `Version ${rule.version}; saving makes version ${rule.version + 1}. Requests already checked keep their version.`
              : 'Checked on the request form as people type and again at submission.'}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          onSubmit={(e) => void submit(e)}
          className="flex flex-col gap-4"
          aria-label={rule ? `Edit ${rule.name}` : 'New policy rule'}
        >
          {error && conflict && (
            <VersionConflictAlert
              message={error}
              onReload={async () => {
                await versioned.reload();
                setError(null);
                setConflict(false);
              }}
            />
          )}
          {error && !conflict && (
            <Alert variant="danger" role="alert">
              <TriangleAlert aria-hidden="true" />
              <span>{error}</span>
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Name"
              value={draft.name}
              required
              error={errorOf('name')}
              onChange={(name) => set({ name })}
              className="sm:col-span-2"
              autoComplete="off"
            />
            <SelectField
              label="Kind"
              value={draft.kind}
              options={kinds}
              onChange={(kind) => set({ kind: kind as PolicyKind })}
            />
            <SelectField
              label="Action"
              value={draft.action}
              options={ACTION_OPTIONS}
              onChange={(action) => set({ action: action as PolicyAction })}
            />
            <SelectField
              label="Applies to"
              value={draft.organizationId}
              placeholder="Every organization"
              options={(options?.organizations ?? []).map((o) => ({ value: o.id, label: o.name }))}
              onChange={(organizationId) => set({ organizationId, vendorIds: [] })}
            />
            <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium">
              <input type="checkbox" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} />
              Active
            </label>
          </div>
          <KindParams draft={draft} set={set} options={options} errorOf={errorOf} />
          {errorOf('conditions') && (
            <p className="text-xs text-destructive" role="alert">
              {errorOf('conditions')}
            </p>
          )}
          <TextField
            label="Description"
            value={draft.description}
            onChange={(description) => set({ description })}
            autoComplete="off"
          />
          {enhanced && (
            <>
              <div className="grid gap-4 sm:grid-cols-3">
                <TextField
                  label="Priority"
                  value={draft.priority}
                  inputMode="numeric"
                  hint="Lower runs first."
                  error={errorOf('priority')}
                  onChange={(priority) => set({ priority })}
                />
                <TextField
                  label="Effective from"
                  type="date"
                  value={draft.effectiveFrom}
                  onChange={(effectiveFrom) => set({ effectiveFrom })}
                />
                <TextField
                  label="Effective to"
                  type="date"
                  value={draft.effectiveTo}
                  error={errorOf('effectiveTo')}
                  onChange={(effectiveTo) => set({ effectiveTo })}
                />
              </div>
              <div className="flex flex-col gap-1.5">
                <p className="text-sm font-medium">Conditions</p>
                <p className="text-xs text-muted-foreground">
                  The rule applies only to requests that match. Amounts compare as numbers; text comparisons ignore
                  case.
                </p>
                <ConditionGroupEditor
                  group={draft.conditions}
                  options={options}
                  onChange={(conditions) => set({ conditions })}
                />
              </div>
            </>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving…' : rule ? 'Save rule' : 'Create rule'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
