import type { RequestDetail, TimelineEvent } from '@outlay/contracts/requests';
import { formatDateTime } from '@/lib/format';

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
