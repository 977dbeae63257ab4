import { CheckCircle2, FileText, Save, Send } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { FormProvider, useWatch } from 'react-hook-form';
import { Link } from 'wouter';
import {
  createRequestInput,
  RECURRENCE_LABELS,
  RECURRENCE_VALUES,
  REQUEST_KIND_LABELS,
  REQUEST_KIND_VALUES,
  type CreateRequestForm,
  type CreateRequestInput,
  type RequestDetail,
  type RequestFormOptions,
} from '@outlay/contracts/requests';
import {
  FormFieldMoney,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  FormServerError,
  VersionConflictAlert,
  applyServerFieldErrors,
  useVersionedEdit,
  useZodForm,
} from '@/components/form';
import { RequestStatusBadge } from '@/components/request-status-badge';
import { requestDetailQueryOptions } from '../api/get-request';
import { invalidateRequests } from '../api/keys';
import { uploadAttachment } from '../api/upload-attachment';
import { AttachmentThumbnail } from './request-detail/attachments-section';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@/lib/api-error';
import { formatMoney, plural } from '@/lib/format';
import { isVersionConflict } from '@/lib/versions';
import { BudgetImpact } from '@/components/budget-impact';
import { useDraftBudgetImpact } from '@/features/budgets';
import { useLiveFindings } from '@/features/policies';
import { runSaveAttempt, type SaveAttempt, type SaveAttemptError } from '../api/save-request-attempt';
import { createRequest } from '../api/create-request';
import { updateRequest } from '../api/update-request';
import { AllocationFields, LineItemsFields } from './advanced-fields';
import { AttachmentPicker, DateField, FxPreview, type PendingFile } from './form-parts';
import { PolicyFindingsList } from './policy-findings';
import { RequestSuggestionsPanel } from './request-suggestions-panel';
import { VendorCombobox } from './vendor-combobox';

const KIND_OPTIONS = REQUEST_KIND_VALUES.map((value) => ({ value, label: REQUEST_KIND_LABELS[value] }));
const RECURRENCE_OPTIONS = RECURRENCE_VALUES.map((value) => ({ value, label: RECURRENCE_LABELS[value] }));

function defaultsOf(options: RequestFormOptions, draft: RequestDetail | undefined): CreateRequestForm {
  if (draft) {
    return {
      title: draft.title,
      description: draft.description ?? '',
      justification: draft.justification ?? '',
      kind: draft.kind,
      amount: draft.amount,
      currency: draft.currency,
      categoryId: draft.categoryId ?? '',
      departmentId: draft.departmentId,
      vendorId: draft.vendorId,
      expenseDate: draft.expenseDate,
      neededBy: draft.neededBy,
      recurrence: draft.recurrence,
      recurrenceEnd: draft.recurrenceEnd,
      lineItems: draft.lineItems.map((li) => ({
        description: li.description,
        categoryId: li.categoryId,
        amount: li.amount,
        taxAmount: li.taxAmount,
      })),
      allocations: draft.allocations.map((a) => ({ departmentId: a.departmentId, percent: a.percent })),
    };
  }
  return {
    title: '',
    description: '',
    justification: '',
    kind: 'purchase',
    amount: '',
    currency: options.organization.currency,
    categoryId: '',
    departmentId: options.defaultDepartmentId,
    vendorId: null,
    expenseDate: null,
    neededBy: null,
    recurrence: 'none',
    recurrenceEnd: null,
    lineItems: [],
    allocations: [],
  };
}

type Intent = 'draft' | 'submit';

interface Outcome {
  intent: Intent;
  detail: RequestDetail;
}

function SaveResult({ outcome, onAnother }: { outcome: Outcome; onAnother: () => void }) {
  const { detail, intent } = outcome;
  const active = detail.steps.find((s) => s.status === 'active');
  const next = active?.approvers.filter((a) => a.status === 'open') ?? [];
  return (
    <Card role="status" aria-live="polite" data-testid="request-saved">
      <CardContent className="flex flex-col gap-4 pt-6">
        <div className="flex items-start gap-3">
          <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-emerald-600" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <h2 className="text-lg font-semibold">
              {intent === 'submit'
                ? detail.status === 'approved'
                  ? 'Approved automatically'
                  : 'Submitted for approval'
                : 'Draft saved'}
            </h2>
            <p className="text-sm text-muted-foreground">
              <span className="font-mono">{detail.reference}</span> · {detail.title} ·{' '}
              {formatMoney(detail.amount, detail.currency)}
            </p>
            <div>
              <RequestStatusBadge status={detail.status} />
            </div>
          </div>
        </div>
        {intent === 'submit' && active && (
          <p className="text-sm">
            Next: <span className="font-medium">{active.name}</span>
            {next.length > 0 && <> — {next.map((a) => a.name).join(', ')}</>}
          </p>
        )}
        {intent === 'submit' && detail.routeReason.length > 0 && (
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            {detail.routeReason.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
        {(detail.overBudget || detail.policyFindings.length > 0) && (
          <Alert variant="warning">
            <span>
              {detail.overBudget && 'This request is over budget. '}
              {detail.policyFindings.length > 0 &&
                `${plural(detail.policyFindings.length, 'policy finding')} — see the request.`}
            </span>
          </Alert>
        )}
        {detail.attachments.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label="Uploaded attachments">
            {detail.attachments.map((a) => (
              <li key={a.id} className="flex items-center gap-2 rounded-md border p-1.5 pr-3 text-sm">
                <AttachmentThumbnail attachment={a} className="size-10" />
                {a.fileName}
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <Link href={`/requests?id=${encodeURIComponent(detail.id)}`}>
              <FileText aria-hidden="true" />
              Open request
            </Link>
          </Button>
          <Button variant="outline" asChild>
            <Link href="/requests">My Requests</Link>
          </Button>
          <Button variant="outline" onClick={onAnother}>
            New request
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

export interface RequestFormProps {
  /** `smart` is the simple form with suggestions learned from the organization's history beside the description. */
  variant: 'simple' | 'advanced' | 'smart';
  options: RequestFormOptions;
  /** Editing an existing draft (or a request sent back for information). */
  draft?: RequestDetail;
  /** Called for "New request" after a save (the page resets). */
  onReset: () => void;
}

/**
 * The spending request form of /new-request and /advanced-request, validated by the
 * contract's `createRequestInput`. Save as draft: create (or update) the draft, then upload the
 * chosen files. Submit: the same, then `POST /:id/submit`. Keys make retries safe; nothing
 * typed is lost on an error, and a draft created by a failed attempt is updated next time.
 */
export function RequestForm({ variant, options, draft, onReset }: RequestFormProps) {
  const queryClient = useQueryClient();
  const form = useZodForm(createRequestInput, defaultsOf(options, draft));
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState<Intent | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [appliedVendorName, setAppliedVendorName] = useState<string | null>(null);
  const attempt = useRef<SaveAttempt>({
    requestId: draft?.id ?? null,
    createKey: null,
    submitKey: null,
  });
  const load = useCallback(
    () => queryClient.fetchQuery({ ...requestDetailQueryOptions(draft!.id), staleTime: 0 }),
    [queryClient, draft],
  );
  const toValues = useCallback((fresh: RequestDetail) => defaultsOf(options, fresh), [options]);
  const versioned = useVersionedEdit({ record: draft, form, load, toValues });
  const [currency, recurrence, lineItems] = useWatch({
    control: form.control,
    name: ['currency', 'recurrence', 'lineItems'],
  });
  const hasLineItems = (lineItems?.length ?? 0) > 0;
  const status = draft?.status ?? 'draft';
  const existingAttachments = draft?.attachments ?? [];
  // The policy rules' findings as the user types (same engine as the submission).
  const [title, description, justification, kind, amount, categoryId, departmentId, vendorId, expenseDate] = useWatch({
    control: form.control,
    name: [
      'title',
      'description',
      'justification',
      'kind',
      'amount',
      'categoryId',
      'departmentId',
      'vendorId',
      'expenseDate',
    ],
  });
  const policy = useLiveFindings({
    requestId: draft?.id ?? null,
    title: title ?? '',
    description: description ?? null,
    justification: justification ?? null,
    kind: kind ?? null,
    amount: amount ?? null,
    currency: currency ?? null,
    categoryId: categoryId || null,
    departmentId: departmentId || null,
    vendorId: vendorId || null,
    expenseDate: expenseDate || null,
    attachmentCount: existingAttachments.length + files.length,
  });

  // The budget lines it would consume if submitted today (the check matches on the submission date).
  const budget = useDraftBudgetImpact({
    organizationId: options.organization.id,
    departmentId: departmentId || options.defaultDepartmentId,
    categoryId: categoryId || null,
    amount: amount ?? null,
    currency: currency ?? null,
  });

  const save = async (values: CreateRequestInput, intent: Intent) => {
    setServerError(null);
    setConflict(false);
    setBusy(intent);
    try {
      const detail = await runSaveAttempt(attempt.current, queryClient, {
        create: async (key) => {
          const created = await createRequest(values, key);
          versioned.saved(created);
          return created;
        },
        update: async (id) => versioned.saved(await updateRequest(id, values, versioned.headers())),
        upload: async (id) => {
          let remaining = [...files];
          for (const pending of files) {
            try {
              await uploadAttachment(id, pending.file);
              remaining = remaining.filter((f) => f.key !== pending.key);
            } catch (error) {
              remaining = remaining.map((f) =>
                f.key === pending.key ? { ...f, error: messageOf(error, 'The upload failed') } : f,
              );
            }
          }
          setFiles(remaining);
          if (remaining.length > 0)
            throw new Error(
              'Some files could not be uploaded: remove or replace them and save again. The request itself is saved as a draft.',
            );
        },
        submit: intent === 'submit' && status === 'draft',
      });
      setOutcome({ intent, detail });
      window.scrollTo({ top: 0 });
    } catch (error) {
      const { stage, failure } = error as SaveAttemptError;
      applyServerFieldErrors(form, failure);
      const message = messageOf(failure, 'Could not save. Try again.');
      setConflict(isVersionConflict(failure));
      setServerError(stage === 'submit' ? `The draft is saved, but it could not be submitted: ${message}` : message);
      if (stage !== 'save') void invalidateRequests(queryClient);
    } finally {
      setBusy(null);
    }
  };

  if (outcome) {
    return (
      <SaveResult
        outcome={outcome}
        onAnother={() => {
          setOutcome(null);
          onReset();
        }}
      />
    );
  }

  const run = (intent: Intent) => form.handleSubmit((values) => save(values, intent))();
  const categoryOptions = options.categories.map((c) => ({ value: c.id, label: `${c.name} (${c.code})` }));
  const departmentOptions = options.departments.map((d) => ({ value: d.id, label: `${d.name} (${d.code})` }));
  const currencyOptions = options.currencies.map((c) => ({
    value: c,
    label: c === options.organization.currency ? `${c} (organization)` : c,
  }));

  return (
    <FormProvider {...form}>
      <form
        noValidate
        aria-label={draft ? `Edit ${draft.reference}` : 'New spending request'}
        className="flex flex-col gap-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (status === 'draft' && policy.blocking) return;
          void run(status === 'draft' ? 'submit' : 'draft');
        }}
      >
        {conflict && serverError && draft ? (
          <VersionConflictAlert
            message={serverError}
            onReload={async () => {
              await versioned.reload();
              setServerError(null);
              setConflict(false);
            }}
          />
        ) : (
          <FormServerError error={serverError} />
        )}
        <Card>
          <CardContent className="grid gap-4 pt-6 sm:grid-cols-2">
            <FormFieldText<CreateRequestForm>
              name="title"
              label="Title"
              required
              className="sm:col-span-2"
              autoComplete="off"
            />
            <FormFieldTextarea<CreateRequestForm>
              name="description"
              label="Description"
              className="sm:col-span-2"
              hint={
                variant === 'smart'
                  ? 'What is it for? The category, vendor and department are suggested as you type.'
                  : undefined
              }
            />
            {variant === 'smart' && (
              <RequestSuggestionsPanel
                organizationId={options.organization.id}
                onVendorApplied={setAppliedVendorName}
                className="sm:col-span-2"
              />
            )}
            <div className="flex flex-col gap-1.5">
              <FormFieldMoney<CreateRequestForm>
                name="amount"
                label="Amount"
                currency={currency}
                required
                disabled={hasLineItems}
                hint={hasLineItems ? 'The total of the line items.' : undefined}
              />
              <FxPreview options={options} />
            </div>
            <FormFieldSelect<CreateRequestForm> name="currency" label="Currency" options={currencyOptions} required />
            <FormFieldSelect<CreateRequestForm>
              name="categoryId"
              label="Category"
              options={categoryOptions}
              placeholder="Choose a category"
              required
            />
            <FormFieldSelect<CreateRequestForm>
              name="departmentId"
              label="Department"
              options={departmentOptions}
              placeholder="Your department"
            />
            <VendorCombobox initialName={appliedVendorName ?? draft?.vendorName} />
            <FormFieldSelect<CreateRequestForm> name="kind" label="Kind" options={KIND_OPTIONS} required />
            <DateField name="expenseDate" label="Date of expense" />
            <DateField name="neededBy" label="Needed by" />
            <FormFieldTextarea<CreateRequestForm>
              name="justification"
              label="Justification"
              hint="Why the spending is needed."
              className="sm:col-span-2"
            />
            <div className="sm:col-span-2">
              {existingAttachments.length > 0 && (
                <div className="mb-3 flex flex-col gap-1.5">
                  <p className="text-sm font-medium">Already attached</p>
                  <ul className="flex flex-wrap gap-2">
                    {existingAttachments.map((a) => (
                      <li key={a.id} className="flex items-center gap-2 rounded-md border p-1.5 pr-3 text-sm">
                        <AttachmentThumbnail attachment={a} className="size-10" />
                        {a.fileName}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <AttachmentPicker
                files={files}
                onChange={setFiles}
                existingCount={existingAttachments.length}
                disabled={busy !== null}
              />
            </div>
          </CardContent>
        </Card>

        {variant === 'advanced' && (
          <>
            <Card>
              <CardContent className="pt-6">
                <LineItemsFields options={options} currency={currency ?? options.organization.currency} />
              </CardContent>
            </Card>
            <Card>
              <CardContent className="pt-6">
                <AllocationFields options={options} />
              </CardContent>
            </Card>
            <Card>
              <CardContent className="grid gap-4 pt-6 sm:grid-cols-2">
                <FormFieldSelect<CreateRequestForm> name="recurrence" label="Repeats" options={RECURRENCE_OPTIONS} />
                {recurrence && recurrence !== 'none' && (
                  <DateField name="recurrenceEnd" label="Repeat until" hint="A recurring request needs an end date." />
                )}
              </CardContent>
            </Card>
          </>
        )}

        {status === 'draft' && (
          <BudgetImpact
            query={budget.query}
            pending={budget.pending}
            headingLevel={2}
            idleMessage={budget.ready ? undefined : 'Enter an amount to see what it does to the budget.'}
          />
        )}
        <PolicyFindingsList findings={policy.findings} hasJustification={Boolean(justification?.trim())} />

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => void run('draft')} disabled={busy !== null}>
            <Save aria-hidden="true" />
            {busy === 'draft' ? 'Saving…' : status === 'draft' ? 'Save as draft' : 'Save changes'}
          </Button>
          {status === 'draft' && (
            <Button
              type="submit"
              disabled={busy !== null || policy.blocking}
              title={policy.blocking ? 'A policy rule blocks this request' : undefined}
            >
              <Send aria-hidden="true" />
              {busy === 'submit' ? 'Submitting…' : 'Submit for approval'}
            </Button>
          )}
        </div>
      </form>
    </FormProvider>
  );
}
