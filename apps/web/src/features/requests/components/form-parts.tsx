import { Paperclip, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { amountDigitsProblem, isPositive } from '@outlay/contracts/money';
import { moneyAmount } from '@outlay/contracts/primitives';
import { ATTACHMENT_ACCEPT, type CreateRequestForm, type RequestFormOptions } from '@outlay/contracts/requests';
import { attachmentProblem } from '../api/upload-attachment';
import { formatBytes } from './request-detail/attachments-section';
import { FieldError, FormField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatMoney, formatRate } from '@/lib/format';
import { useFxQuote } from '../api/get-fx-quote';
import { useDebounced } from '@/lib/use-debounced';

/** A date input whose empty value is null (the schema's "not given"). */
export function DateField({
  name,
  label,
  hint,
}: {
  name: 'expenseDate' | 'neededBy' | 'recurrenceEnd';
  label: string;
  hint?: string;
}) {
  const form = useFormContext<CreateRequestForm>();
  const error = form.formState.errors[name]?.message;
  return (
    <FormField label={label} hint={hint} error={typeof error === 'string' ? error : undefined}>
      <Input
        type="date"
        {...form.register(name, { setValueAs: (v: unknown) => (v === '' || v === undefined ? null : v) })}
      />
    </FormField>
  );
}

/** A positive amount the currency can hold as typed (whole yen, cents of a dollar): only then is it worth converting. */
function convertible(amount: string, currency: string | undefined): boolean {
  return (
    moneyAmount.safeParse(amount).success &&
    isPositive(amount) &&
    (!currency || amountDigitsProblem(amount, currency) === null)
  );
}

/** "≈ $1,234.56 USD at 1.0850 (2026-11)": the live conversion to the organization's currency. */
export function FxPreview({ options }: { options: RequestFormOptions }) {
  const form = useFormContext<CreateRequestForm>();
  const [amount, currency, date] = useWatch({ control: form.control, name: ['amount', 'currency', 'expenseDate'] });
  const orgCurrency = options.organization.currency;
  const cleaned = (amount ?? '').trim();
  const valid = convertible(cleaned, currency);
  const needed = Boolean(currency) && (currency !== orgCurrency || options.groupCurrency !== orgCurrency);
  const params = useDebounced(
    valid && needed && currency ? { amount: cleaned, currency, date: date ?? null } : null,
    300,
  );
  const quote = useFxQuote(params);
  if (!needed || !valid) return null;
  if (quote.isError) return <p className="text-xs text-destructive">No exchange rate for {currency} on that date.</p>;
  if (!quote.data) return <p className="text-xs text-muted-foreground">Converting…</p>;
  const q = quote.data;
  return (
    <div className="flex flex-col gap-0.5 text-xs text-muted-foreground" aria-live="polite" data-testid="fx-preview">
      {q.currency !== q.orgCurrency && (
        <span>
          ≈{' '}
          <span className="font-medium text-foreground">
            {formatMoney(q.amountOrg, q.orgCurrency)} {q.orgCurrency}
          </span>{' '}
          at {formatRate(q.rate)}
          {q.period && ` (${q.period})`}
        </span>
      )}
      {q.groupCurrency !== q.orgCurrency && (
        <span>
          ≈ {formatMoney(q.amountGroup, q.groupCurrency)} {q.groupCurrency} in the group's currency at{' '}
          {formatRate(q.groupRate)}
        </span>
      )}
    </div>
  );
}

export interface PendingFile {
  key: string;
  file: File;
  error?: string;
}

/** Files chosen for the request; they are uploaded once the draft exists. */
export function AttachmentPicker({
  files,
  onChange,
  existingCount,
  disabled,
}: {
  files: PendingFile[];
  onChange: (files: PendingFile[]) => void;
  existingCount: number;
  disabled?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [problems, setProblems] = useState<string[]>([]);

  const add = (chosen: File[]) => {
    const next = [...files];
    const errors: string[] = [];
    for (const file of chosen) {
      const problem = attachmentProblem(file, existingCount + next.length);
      if (problem) errors.push(`${file.name}: ${problem}`);
      else
        next.push({
          key: `${file.name}-${file.size}-${file.lastModified}-${Math.random().toString(36).slice(2)}`,
          file,
        });
    }
    setProblems(errors);
    onChange(next);
  };

  return (
    <FormField
      label="Receipts and attachments"
      hint="Images (JPEG, PNG, WebP, GIF) or PDF, up to 10 MB each. Uploaded when you save."
      id={id}
    >
      {(control) => (
        <div className="flex flex-col gap-2">
          <input
            ref={inputRef}
            id={control.id}
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-describedby={
              [control['aria-describedby'], problems.length ? `${id}-problems` : undefined].filter(Boolean).join(' ') ||
              undefined
            }
            data-testid="attachment-input"
            disabled={disabled}
            onChange={(event) => {
              const chosen = Array.from(event.target.files ?? []);
              event.target.value = '';
              add(chosen);
            }}
          />
          <div>
            <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()} disabled={disabled}>
              <Paperclip aria-hidden="true" />
              Choose files
            </Button>
          </div>
          {files.length > 0 && (
            <ul className="flex flex-col gap-1.5" aria-label="Files to upload">
              {files.map((f) => (
                <li
                  key={f.key}
                  className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5 text-sm"
                >
                  <span className="min-w-0 truncate">
                    {f.file.name} <span className="text-xs text-muted-foreground">({formatBytes(f.file.size)})</span>
                    {f.error && <span className="block text-xs text-destructive">{f.error}</span>}
                  </span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    onClick={() => onChange(files.filter((x) => x.key !== f.key))}
                    aria-label={`Remove ${f.file.name}`}
                    disabled={disabled}
                  >
                    <X aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {problems.length > 0 && (
            <FieldError id={`${id}-problems`}>
              {problems.map((p) => (
                <span key={p} className="block">
                  {p}
                </span>
              ))}
            </FieldError>
          )}
        </div>
      )}
    </FormField>
  );
}
