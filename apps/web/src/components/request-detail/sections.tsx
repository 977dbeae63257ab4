import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Circle, CircleDot, CircleSlash, MessageSquare, TriangleAlert, XCircle } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import type { LineItem, RequestComment, RequestDetail, RouteStep, TimelineEvent } from '@outlay/contracts/requests';
import { CardList, ListCard } from '@/components/data-table';
import { FieldError, FormServerError } from '@/components/form';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { messageOf } from '@/lib/api-error';
import { formatDateTime, formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { addComment, invalidateRequests } from './api';

export function Section({
  title,
  children,
  className,
  count,
}: {
  title: string;
  children: ReactNode;
  className?: string;
  count?: number;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn('flex flex-col gap-3', className)}>
      <h3 id={id} className="text-sm font-semibold uppercase tracking-wide text-slate-600">
        {title}
        {count !== undefined && <span className="ml-1.5 font-normal normal-case text-muted-foreground">({count})</span>}
      </h3>
      {children}
    </section>
  );
}

const STEP_STATUS: Record<RouteStep['status'], { label: string; variant: BadgeProps['variant']; icon: ReactNode }> = {
  waiting: {
    label: 'Waiting',
    variant: 'default',
    icon: <Circle className="size-5 text-slate-400" aria-hidden="true" />,
  },
  active: {
    label: 'In progress',
    variant: 'warning',
    icon: <CircleDot className="size-5 text-amber-600" aria-hidden="true" />,
  },
  approved: {
    label: 'Approved',
    variant: 'success',
    icon: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden="true" />,
  },
  rejected: {
    label: 'Rejected',
    variant: 'danger',
    icon: <XCircle className="size-5 text-red-600" aria-hidden="true" />,
  },
  skipped: {
    label: 'Skipped',
    variant: 'outline',
    icon: <CircleSlash className="size-5 text-slate-400" aria-hidden="true" />,
  },
};

const ASSIGNMENT_STATUS: Record<
  RouteStep['approvers'][number]['status'],
  { label: string; variant: BadgeProps['variant'] }
> = {
  open: { label: 'Waiting for decision', variant: 'warning' },
  approved: { label: 'Approved', variant: 'success' },
  rejected: { label: 'Rejected', variant: 'danger' },
  info_requested: { label: 'Asked for information', variant: 'purple' },
  superseded: { label: 'No longer needed', variant: 'outline' },
};

const REASON_TEXT: Record<RouteStep['approvers'][number]['reason'], string> = {
  workflow: '',
  delegation: 'delegate',
  reassigned: 'reassigned',
  escalated: 'escalated',
  fallback: 'fallback approver',
};

export function RouteSection({ detail }: { detail: RequestDetail }) {
  if (detail.steps.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {detail.status === 'draft'
          ? 'The approval route is chosen when the request is submitted.'
          : 'No approval steps (the request did not need a route).'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {detail.workflowName && (
        <p className="text-sm text-muted-foreground">
          Workflow: <span className="font-medium text-foreground">{detail.workflowName}</span>
        </p>
      )}
      <ol className="flex flex-col gap-2" aria-label="Approval route">
        {detail.steps.map((step) => {
          const s = STEP_STATUS[step.status];
          return (
            <li
              key={step.id}
              className={cn(
                'flex gap-3 rounded-lg border p-3',
                step.status === 'active' && 'border-amber-300 bg-amber-50/50',
              )}
            >
              <span className="mt-0.5">{s.icon}</span>
              <div className="flex min-w-0 flex-1 flex-col gap-1.5">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">
                    {step.position}. {step.name}
                  </span>
                  <Badge variant={s.variant}>{s.label}</Badge>
                  <span className="text-xs text-muted-foreground">
                    {step.mode === 'all' ? 'Everyone must approve' : 'Any one approver'}
                  </span>
                </div>
                {step.dueAt && step.status === 'active' && (
                  <span className="text-xs text-muted-foreground">Due {formatDateTime(step.dueAt)}</span>
                )}
                {step.approvers.length > 0 && (
                  <ul className="flex flex-col gap-1">
                    {step.approvers.map((a, i) => {
                      const st = ASSIGNMENT_STATUS[a.status];
                      const reason = REASON_TEXT[a.reason];
                      return (
                        <li
                          key={`${a.userId}-${i}`}
                          className={cn(
                            'flex flex-wrap items-center gap-x-2 gap-y-1 text-sm',
                            a.status === 'superseded' && 'text-muted-foreground',
                          )}
                        >
                          <span className="font-medium">{a.name}</span>
                          {a.originalApproverName && (
                            <span className="text-xs text-muted-foreground">on behalf of {a.originalApproverName}</span>
                          )}
                          {reason && !a.originalApproverName && (
                            <span className="text-xs text-muted-foreground">({reason})</span>
                          )}
                          <Badge variant={st.variant}>{st.label}</Badge>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {detail.routeReason.length > 0 && (
        <details className="rounded-md bg-slate-50 p-3 text-sm">
          <summary className="cursor-pointer font-medium">Why this route</summary>
          <ul className="mt-2 list-disc pl-5 text-muted-foreground">
            {detail.routeReason.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

const LINE_STATUS: Record<LineItem['status'], BadgeProps['variant']> = {
  pending: 'default',
  approved: 'success',
  rejected: 'danger',
};

const lineStatusLabel = (status: LineItem['status']) => status[0]!.toUpperCase() + status.slice(1);

/** The request's line items: a card each on a phone, a table from 640 px. */
export function LineItemsTable({ detail }: { detail: RequestDetail }) {
  return (
    <>
      <CardList
        items={detail.lineItems}
        label="Line items"
        getKey={(li) => li.id}
        renderCard={(li) => (
          <ListCard
            title={li.description}
            badge={<Badge variant={LINE_STATUS[li.status]}>{lineStatusLabel(li.status)}</Badge>}
            subtitle={
              <>
                {li.categoryName ?? 'No category'}
                {li.rejectionReason && <span className="block text-destructive">{li.rejectionReason}</span>}
              </>
            }
            meta={`Tax ${formatMoney(li.taxAmount, detail.currency)}`}
            amount={formatMoney(li.amount, detail.currency)}
            testId="line-item-card"
          />
        )}
      />
      <LineItemsGrid detail={detail} />
    </>
  );
}

function LineItemsGrid({ detail }: { detail: RequestDetail }) {
  return (
    // Between 640 px and a wide screen the columns may scroll sideways: the region takes focus so that arrow keys reach them.
    <div
      className="relative hidden overflow-x-auto rounded-lg border sm:block"
      tabIndex={0}
      role="region"
      aria-label="Line items"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">Line items</caption>
        <thead className="bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Description
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Category
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Tax
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.lineItems.map((li) => (
            <tr key={li.id} className="border-t">
              <td className="px-3 py-2">
                {li.description}
                {li.rejectionReason && <span className="block text-xs text-destructive">{li.rejectionReason}</span>}
              </td>
              <td className="px-3 py-2">{li.categoryName ?? '—'}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(li.amount, detail.currency)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(li.taxAmount, detail.currency)}</td>
              <td className="px-3 py-2">
                <Badge variant={LINE_STATUS[li.status]}>{lineStatusLabel(li.status)}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AllocationsList({ detail }: { detail: RequestDetail }) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Cost allocation">
      {detail.allocations.map((a) => (
        <li key={a.departmentId} className="flex items-center gap-3 text-sm">
          <span className="w-40 shrink-0 truncate sm:w-56">{a.departmentName}</span>
          <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            <span
              className="block h-full rounded-full bg-primary"
              style={{ width: `${Math.min(100, Number(a.percent))}%` }}
            />
          </span>
          <span className="w-16 text-right tabular-nums">{a.percent}%</span>
        </li>
      ))}
    </ul>
  );
}

const ACTION_WORDS: Record<string, string> = { warn: 'Warning', justify: 'Justification required', block: 'Blocked' };

function findingText(finding: unknown): { title: string; detail: string | null; severity: string | null } {
  if (finding && typeof finding === 'object') {
    const f = finding as Record<string, unknown>;
    const str = (k: string) => (typeof f[k] === 'string' ? (f[k] as string) : null);
    const title = str('message') ?? str('title') ?? str('rule') ?? str('code') ?? JSON.stringify(finding);
    // A policy finding names its rule and the rule's version the request was checked against.
    const rule = str('ruleName');
    const version = typeof f.version === 'number' ? ` · version ${f.version}` : '';
    const action = str('action');
    return {
      title,
      detail: rule ? `${rule}${version}` : (str('detail') ?? str('description')),
      severity: action ? (ACTION_WORDS[action] ?? action) : str('severity'),
    };
  }
  return { title: String(finding), detail: null, severity: null };
}

export function PolicyFindings({ detail }: { detail: RequestDetail }) {
  if (detail.policyFindings.length === 0 && !detail.overBudget)
    return <p className="text-sm text-muted-foreground">No policy findings.</p>;
  return (
    <ul className="flex flex-col gap-2">
      {detail.overBudget && (
        <li className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Over budget{detail.overrunStatus ? ` — overrun decision: ${detail.overrunStatus}` : ''}</span>
        </li>
      )}
      {detail.policyFindings.map((f, i) => {
        const t = findingText(f);
        return (
          <li key={i} className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {t.severity && <span className="mr-1 font-semibold uppercase">{t.severity}:</span>}
              {t.title}
              {t.detail && <span className="block text-xs">{t.detail}</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

const EVENT_TEXT: Record<string, string> = {
  created: 'Created the request',
  updated: 'Edited the request',
  submitted: 'Submitted for approval',
  auto_approved: 'Approved automatically',
  step_approved: 'Approved the step',
  approved: 'Request approved',
  rejected: 'Rejected the request',
  info_requested: 'Asked for more information',
  resubmitted: 'Answered and resubmitted',
  cancelled: 'Cancelled the request',
  paid: 'Marked paid',
  payment_recorded: 'Recorded a part payment',
  commented: 'Commented',
  attachment_added: 'Added an attachment',
  attachment_removed: 'Removed an attachment',
  reminded: 'Reminder sent',
  escalated: 'Escalated',
  reassigned: 'Reassigned',
  delegated: 'Delegated',
  rerouted: 'Route restarted',
  line_items_rejected: 'Rejected line items',
};

export function Timeline({ events }: { events: TimelineEvent[] }) {
  if (events.length === 0) return <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>;
  return (
    <ol className="relative flex flex-col gap-4 border-l border-slate-200 pl-5" aria-label="Timeline">
      {events.map((e) => (
        <li key={e.id} className="relative">
          <span
            className="absolute -left-[1.6rem] top-1.5 size-2.5 rounded-full bg-primary ring-4 ring-card"
            aria-hidden="true"
          />
          <p className="text-sm">
            <span className="font-medium">{EVENT_TEXT[e.type] ?? e.type.replace(/_/g, ' ')}</span>
            {e.stepPosition !== null && <span className="text-muted-foreground"> · step {e.stepPosition}</span>}
          </p>
          <p className="text-xs text-muted-foreground">
            {e.actor ? e.actor.name : 'System'}
            {e.onBehalfOf && ` on behalf of ${e.onBehalfOf.name}`} ·{' '}
            <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
          </p>
          {e.note && <p className="mt-1 whitespace-pre-line rounded-md bg-slate-50 p-2 text-sm">{e.note}</p>}
        </li>
      ))}
    </ol>
  );
}

const COMMENT_KIND: Record<RequestComment['kind'], string | null> = {
  comment: null,
  info_request: 'Information requested',
  info_response: 'Answer',
};

export function Comments({
  requestId,
  comments,
  canComment,
  onChanged,
}: {
  requestId: string;
  comments: RequestComment[];
  canComment: boolean;
  onChanged?: () => void;
}) {
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = useId();

  const send = async () => {
    const text = body.trim();
    if (!text) {
      setFieldError('Write a comment');
      return;
    }
    setFieldError(null);
    setServerError(null);
    setPending(true);
    try {
      await addComment(requestId, text);
      setBody('');
      await invalidateRequests(queryClient);
      onChanged?.();
    } catch (error) {
      setServerError(messageOf(error, 'The comment could not be added. Try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      {comments.length === 0 ? (
        <p className="text-sm text-muted-foreground">No comments yet.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Comments">
          {comments.map((c) => {
            const kind = COMMENT_KIND[c.kind];
            return (
              <li
                key={c.id}
                className={cn('rounded-lg border p-3', c.kind === 'info_request' && 'border-violet-200 bg-violet-50')}
              >
                <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <MessageSquare className="size-3.5" aria-hidden="true" />
                  <span className="font-medium text-foreground">{c.author.name}</span>
                  <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                  {kind && <Badge variant={c.kind === 'info_request' ? 'purple' : 'primary'}>{kind}</Badge>}
                </p>
                <p className="mt-1.5 whitespace-pre-line text-sm">{c.body}</p>
              </li>
            );
          })}
        </ul>
      )}
      {canComment && (
        <form
          noValidate
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <FormServerError error={serverError} />
          <Label htmlFor={fieldId}>Add a comment</Label>
          <Textarea
            id={fieldId}
            rows={2}
            maxLength={2000}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${fieldId}-error` : undefined}
          />
          {fieldError && <FieldError id={`${fieldId}-error`}>{fieldError}</FieldError>}
          <div>
            <Button type="submit" size="sm" disabled={pending}>
              {pending ? 'Sending…' : 'Comment'}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

function auditSummary(before: unknown, after: unknown): string | null {
  if (!after || typeof after !== 'object') return null;
  const a = after as Record<string, unknown>;
  const b = before && typeof before === 'object' ? (before as Record<string, unknown>) : {};
  const changed = Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (changed.length === 0) return null;
  return changed
    .slice(0, 6)
    .map((k) => {
      const v = a[k];
      const text = v === null || v === undefined ? '—' : typeof v === 'object' ? '…' : String(v);
      return `${k}: ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
    })
    .join(' · ');
}

export function AuditTrail({ entries }: { entries: RequestDetail['audit'] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No audit entries.</p>;
  return (
    <ol className="flex flex-col divide-y rounded-lg border" aria-label="Audit trail">
      {entries.map((e) => {
        const summary = auditSummary(e.before, e.after);
        return (
          <li key={e.id} className="flex flex-col gap-0.5 px-3 py-2 text-sm">
            <span className="flex flex-wrap items-center justify-between gap-2">
              <code className="text-xs font-semibold">{e.action}</code>
              <time className="text-xs text-muted-foreground" dateTime={e.occurredAt}>
                {formatDateTime(e.occurredAt)}
              </time>
            </span>
            <span className="text-xs text-muted-foreground">{e.actorName ?? 'System'}</span>
            {summary && <span className="break-all text-xs text-slate-600">{summary}</span>}
          </li>
        );
      })}
    </ol>
  );
}
