import { Check, Sparkles, WandSparkles } from 'lucide-react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { CreateRequestForm } from '@outlay/contracts/requests';
import type { RequestSuggestion } from '@outlay/contracts/request-suggestions';
import { QueryError } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useRequestSuggestions } from '@/features/request-suggestions';
import { formatPercent, plural } from '@/lib/format';
import { cn } from '@/lib/utils';

type Field = 'categoryId' | 'vendorId' | 'departmentId';

const KINDS: { field: Field; key: 'categories' | 'vendors' | 'departments'; label: string }[] = [
  { field: 'categoryId', key: 'categories', label: 'Category' },
  { field: 'vendorId', key: 'vendors', label: 'Vendor' },
  { field: 'departmentId', key: 'departments', label: 'Department' },
];

export interface RequestSuggestionsPanelProps {
  organizationId: string;
  /** The chosen vendor's name, for the vendor picker to show (it only knows the vendors it searched). */
  onVendorApplied: (name: string) => void;
  className?: string;
}

/**
 * The smart form's suggestions: as the title and description are typed, the categories, vendors
 * and departments the organization's past requests point to, each a button that fills the field
 * (click, Enter or Space). The one in the field is shown pressed.
 */
export function RequestSuggestionsPanel({ organizationId, onVendorApplied, className }: RequestSuggestionsPanelProps) {
  const form = useFormContext<CreateRequestForm>();
  const [title, description, categoryId, vendorId, departmentId] = useWatch({
    control: form.control,
    name: ['title', 'description', 'categoryId', 'vendorId', 'departmentId'],
  });
  const text = [title, description].filter(Boolean).join('\n');
  const { query, ready, pending } = useRequestSuggestions({ organizationId, text });
  const current: Record<Field, string | null | undefined> = { categoryId, vendorId, departmentId };
  const data = ready ? query.data : undefined;

  const apply = (field: Field, suggestion: RequestSuggestion) => {
    form.setValue(field, suggestion.id, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    if (field === 'vendorId') onVendorApplied(suggestion.name);
  };
  const applyAll = () => {
    for (const kind of KINDS) {
      const top = data?.[kind.key][0];
      if (top) apply(kind.field, top);
    }
  };
  const allApplied = data ? KINDS.every((k) => !data[k.key][0] || current[k.field] === data[k.key][0]!.id) : true;

  let body;
  if (!ready) {
    body = (
      <p className="text-sm text-muted-foreground">
        Describe what you are buying and suggestions from your organization&apos;s past requests appear here.
      </p>
    );
  } else if (query.isError && !query.data) {
    body = (
      <QueryError compact error={query.error} message="Suggestions could not be loaded." onRetry={query.refetch} />
    );
  } else if (!data) {
    body = <Spinner label="Finding suggestions" />;
  } else if (data.trainedOn === 0) {
    body = (
      <p className="text-sm text-muted-foreground">
        Your organization has no past requests to learn from yet: choose the fields below.
      </p>
    );
  } else {
    body = (
      <div className="flex flex-col gap-3">
        {KINDS.map((kind) => {
          // A choice the model gives under 1% is noise on screen; the best one always shows.
          const items = data[kind.key].filter((s, i) => i === 0 || s.probability >= 0.01);
          return (
            <div
              key={kind.field}
              role="group"
              aria-label={`Suggested ${kind.label.toLowerCase()}`}
              className="flex flex-col gap-1.5 sm:flex-row sm:items-center"
            >
              <span className="w-28 shrink-0 text-xs font-medium uppercase tracking-wide text-muted-foreground">
                {kind.label}
              </span>
              {items.length === 0 ? (
                <span className="text-sm text-muted-foreground">No suggestion</span>
              ) : (
                <ul className="flex flex-wrap gap-2">
                  {items.map((s) => {
                    const applied = current[kind.field] === s.id;
                    return (
                      <li key={s.id}>
                        <Button
                          type="button"
                          size="sm"
                          variant={applied ? 'secondary' : 'outline'}
                          aria-pressed={applied}
                          className={cn('max-w-full', applied && 'border border-primary')}
                          onClick={() => apply(kind.field, s)}
                        >
                          {applied && <Check aria-hidden="true" />}
                          <span className="truncate">{s.name}</span>
                          <span className="tabular-nums text-muted-foreground">
                            {formatPercent(s.probability * 100, 0)}
                          </span>
                        </Button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </div>
          );
        })}
        <p className="text-xs text-muted-foreground">
          {data.personal
            ? 'Weighted by your own requests'
            : 'From your organization as a whole (you have no past requests yet)'}{' '}
          · learned from {plural(data.trainedOn, 'past request')}.
        </p>
      </div>
    );
  }

  return (
    <section
      aria-labelledby="request-suggestions-heading"
      className={cn('rounded-lg border border-dashed bg-muted/30 p-3', className)}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <h2 id="request-suggestions-heading" className="flex items-center gap-2 text-sm font-semibold">
            <Sparkles className="size-4 text-primary" aria-hidden="true" />
            Suggestions
          </h2>
          {ready && pending && data && <Spinner size="sm" label="Updating suggestions" />}
        </div>
        {data && data.trainedOn > 0 && (
          <Button type="button" size="sm" variant="ghost" onClick={applyAll} disabled={allApplied}>
            <WandSparkles aria-hidden="true" />
            Apply top suggestions
          </Button>
        )}
      </div>
      <div aria-live="polite">{body}</div>
    </section>
  );
}
