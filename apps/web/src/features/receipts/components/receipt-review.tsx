import { CheckCircle2, FileText, Save, Send, TriangleAlert } from 'lucide-react';
import { useRef, useState } from 'react';
import { FormProvider, useWatch } from 'react-hook-form';
import { Link } from 'wouter';
import { roundToCurrency, subtractMoney, isPositive } from '@outlay/contracts/money';
import {
  RECEIPT_LOW_CONFIDENCE,
  receiptRequestForm,
  type ReceiptField,
  type ReceiptRequestForm,
  type ReceiptScan,
} from '@outlay/contracts/receipts';
import type { CreateRequestInput, RequestDetail, RequestFormOptions } from '@outlay/contracts/requests';
import {
  FormFieldMoney,
  FormFieldSelect,
  FormFieldText,
  FormServerError,
  applyServerFieldErrors,
  useZodForm,
} from '@/components/form';
import { RequestStatusBadge } from '@/components/request-status-badge';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@/lib/api-error';
import { formatMoney, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  runSaveAttempt,
  type SaveAttempt,
  type SaveAttemptError,
  createRequest,
  updateRequest,
  uploadAttachment,
} from '@/features/requests';

type Intent = 'draft' | 'submit';

/** "92% sure", amber and "check" below the threshold, "not found" when the receipt did not say. */
function ConfidenceBadge({ field, scan }: { field: ReceiptField; scan: ReceiptScan }) {
  const found = scan[field] !== null;
  const confidence = scan.confidence[field];
  if (!found) return <Badge variant="warning">Not found: enter it</Badge>;
  const low = confidence < RECEIPT_LOW_CONFIDENCE;
  return (
    <Badge variant={low ? 'warning' : 'success'}>
      {low ? `Check this · ${formatPercent(confidence * 100, 0)} sure` : `${formatPercent(confidence * 100, 0)} sure`}
    </Badge>
  );
}

function isLow(field: ReceiptField, scan: ReceiptScan): boolean {
  // A tax the receipt does not print is a finding in itself, not something to check.
  if (field === 'tax' && scan.tax === null) return false;
  return scan[field] === null || scan.confidence[field] < RECEIPT_LOW_CONFIDENCE;
}

function defaultsOf(scan: ReceiptScan, options: RequestFormOptions): ReceiptRequestForm {
  const currency =
    scan.currency && options.currencies.includes(scan.currency) ? scan.currency : options.organization.currency;
  return {
    merchant: scan.merchant ?? '',
    title: scan.merchant ? `Receipt from ${scan.merchant}` : '',
    description: null,
    kind: 'reimbursement',
    amount: scan.total ?? '',
    taxAmount: scan.tax ?? '',
    currency,
    categoryId: '',
    expenseDate: scan.date ?? null,
  };
}

/** The request the reviewed receipt becomes: its total with the tax on one line item when the receipt prints one. */
export function toRequestInput(
  values: ReceiptRequestForm & { amount: string; currency: string; categoryId: string; title: string },
): CreateRequestInput {
  const merchant = values.merchant?.trim() || null;
  const tax = values.taxAmount?.trim() || null;
  const base: CreateRequestInput = {
    title: values.title,
    description: merchant ? `Receipt from ${merchant}` : null,
    justification: null,
    kind: values.kind ?? 'reimbursement',
    amount: values.amount,
    currency: values.currency,
    categoryId: values.categoryId,
    expenseDate: values.expenseDate ?? null,
    recurrence: 'none',
    lineItems: [],
    allocations: [],
  };
  if (tax && isPositive(tax) && isPositive(subtractMoney(values.amount, tax))) {
    const net = roundToCurrency(subtractMoney(values.amount, tax), values.currency);
    base.lineItems = [{ description: merchant ?? values.title, categoryId: null, amount: net, taxAmount: tax }];
  }
  return base;
}

function Saved({ detail, intent, onAnother }: { detail: RequestDetail; intent: Intent; onAnother: () => void }) {
  return (
    <Card role="status" aria-live="polite" data-testid="receipt-request-saved">
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
            <p className="text-sm">
              {detail.attachments.length > 0
                ? `Receipt attached: ${detail.attachments.map((a) => a.fileName).join(', ')}`
                : 'No receipt attached'}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <Link href={`/requests?id=${encodeURIComponent(detail.id)}`}>
              <FileText aria-hidden="true" />
              Open request
            </Link>
          </Button>
          <Button variant="outline" onClick={onAnother}>
            Read another receipt
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function ReviewedField({
  field,
  scan,
  children,
}: {
  field: ReceiptField;
  scan: ReceiptScan;
  children: React.ReactNode;
}) {
  const low = isLow(field, scan);
  return (
    <div
      data-testid={`receipt-field-${field}`}
      data-low={low ? 'true' : undefined}
      className={cn(
        'flex flex-col gap-2 rounded-md border p-3',
        low ? 'border-amber-300 bg-amber-50' : 'border-transparent',
      )}
    >
      <ConfidenceBadge field={field} scan={scan} />
      {children}
    </div>
  );
}

/**
 * The review of a read receipt: each field as read, with how sure the reader is; the doubtful ones
 * are highlighted. The person corrects them, picks the category and creates the request (a draft
 * or submitted) with the receipt attached, through the same requests API as the request form.
 */
export function ReceiptReview({
  scan,
  file,
  options,
  onAnother,
}: {
  scan: ReceiptScan;
  file: File;
  options: RequestFormOptions;
  onAnother: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useZodForm(receiptRequestForm, defaultsOf(scan, options));
  const [busy, setBusy] = useState<Intent | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ detail: RequestDetail; intent: Intent } | null>(null);
  const attempt = useRef<SaveAttempt & { uploaded: boolean }>({
    requestId: null,
    createKey: null,
    submitKey: null,
    uploaded: false,
  });
  const currency = useWatch({ control: form.control, name: 'currency' });
  const lowCount = (['merchant', 'date', 'total', 'tax', 'currency'] as const).filter((f) => isLow(f, scan)).length;

  const save = async (values: Parameters<typeof toRequestInput>[0], intent: Intent) => {
    setServerError(null);
    setBusy(intent);
    const state = attempt.current;
    try {
      const detail = await runSaveAttempt(state, queryClient, {
        create: (key) => createRequest(toRequestInput(values), key),
        // A retry after a refusal (say, a policy on the date) saves the corrected fields first.
        update: (id) => updateRequest(id, toRequestInput(values)),
        upload: async (id) => {
          if (state.uploaded) return;
          await uploadAttachment(id, file);
          state.uploaded = true;
        },
        submit: intent === 'submit',
      });
      setSaved({ detail, intent });
      window.scrollTo({ top: 0 });
    } catch (error) {
      const { stage, failure } = error as SaveAttemptError;
      applyServerFieldErrors(form, failure);
      const message = messageOf(failure, 'Could not save. Try again.');
      setServerError(
        stage === 'upload'
          ? `The draft is saved, but the receipt could not be attached: ${message}`
          : stage === 'submit'
            ? `The draft is saved with its receipt, but it could not be submitted: ${message}`
            : message,
      );
    } finally {
      setBusy(null);
    }
  };

  if (saved) return <Saved detail={saved.detail} intent={saved.intent} onAnother={onAnother} />;

  const categoryOptions = options.categories.map((c) => ({ value: c.id, label: c.name }));
  const currencyOptions = options.currencies.map((c) => ({ value: c, label: c }));
  const unknownCurrency = scan.currency !== null && !options.currencies.includes(scan.currency);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Review what was read</CardTitle>
        <p className="text-sm text-muted-foreground">
          {lowCount === 0
            ? 'Every field was read with confidence. Check them anyway, then create the request.'
            : `${lowCount === 1 ? 'One field needs' : `${lowCount} fields need`} checking: they are highlighted.`}
        </p>
      </CardHeader>
      <CardContent>
        <FormProvider {...form}>
          <form
            noValidate
            aria-label="Review the receipt"
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const intent =
                ((e.nativeEvent as SubmitEvent).submitter?.getAttribute('value') as Intent | null) ?? 'draft';
              void form.handleSubmit((values) => save(values as Parameters<typeof toRequestInput>[0], intent))(e);
            }}
          >
            <div className="grid gap-3 sm:grid-cols-2">
              <ReviewedField field="merchant" scan={scan}>
                <FormFieldText name="merchant" label="Merchant" autoComplete="off" />
              </ReviewedField>
              <ReviewedField field="date" scan={scan}>
                <FormFieldText name="expenseDate" label="Date" type="date" />
              </ReviewedField>
              <ReviewedField field="total" scan={scan}>
                <FormFieldMoney name="amount" label="Total" currency={currency} required />
              </ReviewedField>
              <ReviewedField field="tax" scan={scan}>
                <FormFieldMoney
                  name="taxAmount"
                  label="Tax (VAT or sales tax)"
                  currency={currency}
                  hint={scan.tax === null ? 'None printed on the receipt' : undefined}
                />
              </ReviewedField>
              <ReviewedField field="currency" scan={scan}>
                <FormFieldSelect name="currency" label="Currency" options={currencyOptions} required />
                {unknownCurrency && (
                  <p className="text-xs text-amber-900">
                    The receipt is in {scan.currency}, which has no exchange rate here yet: choose the currency you paid
                    in.
                  </p>
                )}
              </ReviewedField>
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <FormFieldText name="title" label="Request title" required />
              <FormFieldSelect
                name="categoryId"
                label="Category"
                options={categoryOptions}
                placeholder="Choose a category"
                required
              />
            </div>
            <details className="rounded-md border p-3 text-sm">
              <summary className="cursor-pointer font-medium">Text read from the receipt</summary>
              <pre
                className="mt-2 max-h-64 overflow-auto text-xs whitespace-pre-wrap"
                tabIndex={0}
                aria-label="Text read from the receipt"
              >
                {scan.text || 'No text could be read.'}
              </pre>
            </details>
            <FormServerError error={serverError} />
            {lowCount > 0 && (
              <Alert variant="warning">
                <TriangleAlert aria-hidden="true" />
                <span>Check the highlighted fields against the receipt before you create the request.</span>
              </Alert>
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="ghost" onClick={onAnother} disabled={busy !== null}>
                Start over
              </Button>
              <Button type="submit" name="intent" value="draft" variant="outline" disabled={busy !== null}>
                <Save aria-hidden="true" />
                {busy === 'draft' ? 'Saving…' : 'Save as draft'}
              </Button>
              <Button type="submit" name="intent" value="submit" disabled={busy !== null}>
                <Send aria-hidden="true" />
                {busy === 'submit' ? 'Submitting…' : 'Submit for approval'}
              </Button>
            </div>
          </form>
        </FormProvider>
      </CardContent>
    </Card>
  );
}
