import { useQueryClient } from '@tanstack/react-query';
import { Banknote, Ban, MessageCircleReply, Pencil, Repeat, Send, TriangleAlert } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { RECURRENCE_LABELS, REQUEST_KIND_LABELS, type RequestDetail } from '@outlay/contracts/requests';
import { ConfirmDialog } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { isApiError, messageOf } from '@/lib/api-error';
import { formatDate, formatDateTime, formatMoney, formatRate } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { cancelRequest } from '@/features/requests/api/cancel-request';
import { useRequestDetail } from '@/features/requests/api/get-request';
import { invalidateRequests } from '@/features/requests/api/keys';
import { submitRequest } from '@/features/requests/api/submit-request';
import { AttachmentsSection } from './attachments-section';
import { PayRequestDialog, RespondDialog } from './action-dialogs';
import { RequestStatusBadge } from '@/components/request-status-badge';
import { Comments } from './comments';
import { AuditTrail, Timeline } from './history';
import { AllocationsList, LineItemsTable } from './line-items';
import { PolicyFindings } from './policy-findings-section';
import { RouteSection } from './route-section';
import { Section } from './section';

export interface RequestDetailViewProps {
  requestId: string;
  /** Called after any change made from the view (submit, cancel, answer, pay, comment, files). */
  onChanged?: (detail?: RequestDetail) => void;
  /** Extra buttons placed with the view's own actions (e.g. the approver's decision buttons). */
  extraActions?: (detail: RequestDetail) => ReactNode;
  /** Where "Edit" goes (default: the form that fits the request, with ?edit=<id>). */
  editHref?: (detail: RequestDetail) => string;
}

export function editHrefOf(detail: Pick<RequestDetail, 'id' | 'lineItems' | 'allocations' | 'recurrence'>): string {
  const advanced = detail.lineItems.length > 0 || detail.allocations.length > 0 || detail.recurrence !== 'none';
  return `${advanced ? '/advanced-request' : '/new-request'}?edit=${encodeURIComponent(detail.id)}`;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children ?? '—'}</dd>
    </div>
  );
}

function Amounts({ detail }: { detail: RequestDetail }) {
  const foreign = detail.currency !== detail.orgCurrency;
  const groupDiffers = detail.groupCurrency !== detail.orgCurrency;
  return (
    <div className="flex flex-col gap-1" data-testid="request-amounts">
      <p className="text-2xl font-semibold tabular-nums">{formatMoney(detail.amount, detail.currency)}</p>
      {detail.approvedAmount && detail.approvedAmount !== detail.amount && (
        <p className="text-sm text-emerald-800">Approved: {formatMoney(detail.approvedAmount, detail.currency)}</p>
      )}
      {foreign && (
        <p className="text-sm text-muted-foreground">
          {formatMoney(detail.amountOrg, detail.orgCurrency)} at {formatRate(detail.fxRate)} {detail.currency}→
          {detail.orgCurrency}
        </p>
      )}
      {groupDiffers && (
        <p className="text-sm text-muted-foreground">
          {formatMoney(detail.amountGroup, detail.groupCurrency)} in the group's currency (rate{' '}
          {formatRate(detail.groupFxRate)})
        </p>
      )}
      {detail.status === 'draft' && (foreign || groupDiffers) && (
        <p className="text-xs text-muted-foreground">Rates are fixed when the request is submitted.</p>
      )}
    </div>
  );
}

/** Screens that open `?id=<request>` in place; elsewhere a request link goes to My Requests. */
const OPENS_BY_ID = ['/requests', '/requests-management'];

/**
 * Recurring requests: a template "Repeats monthly until 31 Dec 2026"; an occurrence raised from
 * it "Occurrence of REQ-000123", a link that opens the template.
 */
function Recurrence({ detail }: { detail: RequestDetail }) {
  const [location] = useLocation();
  if (detail.recurrenceParentId) {
    const base = OPENS_BY_ID.includes(location) ? location : '/requests';
    return (
      <p
        className="inline-flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground"
        data-testid="request-recurrence"
      >
        <Repeat className="size-4" aria-hidden="true" />
        Occurrence of{' '}
        <Link
          href={`${base}?id=${encodeURIComponent(detail.recurrenceParentId)}`}
          className="rounded font-mono font-medium text-primary underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {detail.recurrenceParentReference ?? 'the recurring request'}
        </Link>
      </p>
    );
  }
  if (detail.recurrence === 'none') return null;
  const every = detail.recurrence === 'quarterly' ? 'quarterly' : 'monthly';
  return (
    <p className="inline-flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="request-recurrence">
      <Repeat className="size-4" aria-hidden="true" />
      Repeats {every}
      {detail.recurrenceEnd ? ` until ${formatDate(detail.recurrenceEnd)}` : ''}
    </p>
  );
}

/**
 * One spending request in full: header and amounts, the route with its approvers, line items,
 * allocation, policy findings, attachments, comments, timeline and audit trail, and the
 * buttons the server allows (`actions`). Fetches the detail itself (GET /api/requests/:id).
 */
export function RequestDetailView(props: RequestDetailViewProps) {
  const query = useRequestDetail(props.requestId);
  return (
    <QueryState
      query={query}
      loadingLabel="Loading request"
      errorMessage="The request could not be loaded."
      notFoundMessage="This request does not exist or you cannot see it."
      className="min-h-48"
    >
      {(detail) => <RequestDetailBody {...props} detail={detail} />}
    </QueryState>
  );
}

function RequestDetailBody({
  detail,
  onChanged,
  extraActions,
  editHref = editHrefOf,
}: RequestDetailViewProps & { detail: RequestDetail }) {
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const [responding, setResponding] = useState(false);
  const [paying, setPaying] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const submitKey = useRef<string | null>(null);

  const { actions } = detail;
  const changed = async () => {
    await invalidateRequests(queryClient);
    onChanged?.(detail);
  };

  const submit = async () => {
    submitKey.current ??= newIdempotencyKey();
    setSubmitting(true);
    try {
      const result = await submitRequest(detail.id, submitKey.current);
      submitKey.current = null;
      toast({
        variant: 'success',
        title: `${detail.reference} submitted`,
        description: result?.currentStepName ? `Next: ${result.currentStepName}` : undefined,
      });
      await changed();
    } catch (error) {
      // A definite answer ends the attempt; a lost connection keeps the key for the retry.
      if (isApiError(error)) submitKey.current = null;
      toast({ variant: 'destructive', title: 'Could not submit', description: messageOf(error, 'Try again.') });
    } finally {
      setSubmitting(false);
    }
  };

  const lastQuestion = [...detail.comments].reverse().find((c) => c.kind === 'info_request')?.body ?? null;
  const hasButtons =
    actions.edit || actions.submit || actions.cancel || actions.respond || actions.pay || Boolean(extraActions);

  return (
    <article
      className="flex flex-col gap-6"
      aria-labelledby={`request-title-${detail.id}`}
      data-testid="request-detail"
    >
      <header className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm text-muted-foreground">{detail.reference}</span>
          <RequestStatusBadge status={detail.status} />
          {detail.overBudget && (
            <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-800">
              <TriangleAlert className="size-3.5" aria-hidden="true" /> Over budget
            </span>
          )}
        </div>
        <h2 id={`request-title-${detail.id}`} className="text-xl font-semibold leading-tight sm:text-2xl">
          {detail.title}
        </h2>
        <Amounts detail={detail} />
        <Recurrence detail={detail} />
        {detail.status === 'rejected' && detail.rejectionReason && (
          <Alert variant="danger">
            <TriangleAlert aria-hidden="true" />
            <span>Rejected: {detail.rejectionReason}</span>
          </Alert>
        )}
        {detail.status === 'info_requested' && lastQuestion && (
          <Alert variant="warning">
            <MessageCircleReply aria-hidden="true" />
            <span>Information requested: {lastQuestion}</span>
          </Alert>
        )}
        {detail.status === 'paid' && (
          <Alert variant="success">
            <Banknote aria-hidden="true" />
            <span>
              Paid {formatDate(detail.paymentDate)}
              {detail.paymentReference && ` · reference ${detail.paymentReference}`}
              {detail.paidBy && ` · by ${detail.paidBy.name}`}
            </span>
          </Alert>
        )}
        {hasButtons && (
          <div className="flex flex-wrap gap-2" role="group" aria-label="Request actions">
            {actions.edit && (
              <Button variant="outline" asChild>
                <Link href={editHref(detail)}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Link>
              </Button>
            )}
            {actions.submit && (
              <Button onClick={() => void submit()} disabled={submitting}>
                <Send aria-hidden="true" />
                {submitting ? 'Submitting…' : 'Submit for approval'}
              </Button>
            )}
            {actions.respond && (
              <Button onClick={() => setResponding(true)}>
                <MessageCircleReply aria-hidden="true" />
                Answer and resubmit
              </Button>
            )}
            {actions.pay && (
              <Button onClick={() => setPaying(true)}>
                <Banknote aria-hidden="true" />
                Mark paid
              </Button>
            )}
            {extraActions?.(detail)}
            {actions.cancel && (
              <Button variant="outline" className="text-destructive" onClick={() => setCancelling(true)}>
                <Ban aria-hidden="true" />
                Cancel request
              </Button>
            )}
          </div>
        )}
      </header>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border p-4 sm:grid-cols-3">
        <Fact label="Requester">{detail.requester.name}</Fact>
        <Fact label="Kind">{REQUEST_KIND_LABELS[detail.kind]}</Fact>
        <Fact label="Organization">{detail.organizationName}</Fact>
        <Fact label="Department">{detail.departmentName}</Fact>
        <Fact label="Category">{detail.categoryName}</Fact>
        <Fact label="Vendor">{detail.vendorName}</Fact>
        <Fact label="Date of expense">{formatDate(detail.expenseDate)}</Fact>
        <Fact label="Needed by">{formatDate(detail.neededBy)}</Fact>
        <Fact label="Recurrence">
          {detail.recurrenceParentId
            ? `Occurrence of ${detail.recurrenceParentReference ?? 'a recurring request'}`
            : RECURRENCE_LABELS[detail.recurrence]}
          {!detail.recurrenceParentId &&
            detail.recurrence !== 'none' &&
            detail.recurrenceEnd &&
            ` until ${formatDate(detail.recurrenceEnd)}`}
        </Fact>
        <Fact label="Created">{formatDateTime(detail.createdAt)}</Fact>
        <Fact label="Submitted">{formatDateTime(detail.submittedAt)}</Fact>
        <Fact label="Decided">{formatDateTime(detail.decidedAt)}</Fact>
      </dl>

      {(detail.description || detail.justification) && (
        <div className="grid gap-4 sm:grid-cols-2">
          {detail.description && (
            <Section title="Description">
              <p className="whitespace-pre-line text-sm">{detail.description}</p>
            </Section>
          )}
          {detail.justification && (
            <Section title="Justification">
              <p className="whitespace-pre-line text-sm">{detail.justification}</p>
            </Section>
          )}
        </div>
      )}

      <Section title="Approval route">
        <RouteSection detail={detail} />
      </Section>

      {detail.lineItems.length > 0 && (
        <Section title="Line items" count={detail.lineItems.length}>
          <LineItemsTable detail={detail} />
        </Section>
      )}

      {detail.allocations.length > 0 && (
        <Section title="Cost allocation">
          <AllocationsList detail={detail} />
        </Section>
      )}

      <Section title="Policy findings">
        <PolicyFindings detail={detail} />
      </Section>

      <Section title="Attachments" count={detail.attachments.length}>
        <AttachmentsSection
          requestId={detail.id}
          attachments={detail.attachments}
          canAttach={actions.attach}
          onChanged={() => onChanged?.(detail)}
        />
      </Section>

      <Tabs defaultValue="comments">
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="comments">Comments ({detail.comments.length})</TabsTrigger>
          <TabsTrigger value="timeline">Timeline</TabsTrigger>
          <TabsTrigger value="audit">Audit trail</TabsTrigger>
        </TabsList>
        <TabsContent value="comments">
          <Comments
            requestId={detail.id}
            comments={detail.comments}
            canComment={actions.comment}
            onChanged={() => onChanged?.(detail)}
          />
        </TabsContent>
        <TabsContent value="timeline">
          <Timeline events={detail.timeline} />
        </TabsContent>
        <TabsContent value="audit">
          <AuditTrail entries={detail.audit} />
        </TabsContent>
      </Tabs>

      <ConfirmDialog
        open={cancelling}
        onOpenChange={setCancelling}
        title={`Cancel ${detail.reference}?`}
        description="The request stops here and cannot be submitted again."
        confirmLabel="Cancel request"
        cancelLabel="Keep it"
        reason={{ label: 'Reason (optional)', required: false, maxLength: 500 }}
        onConfirm={async (reason) => {
          await cancelRequest(detail.id, reason);
          toast({ title: `${detail.reference} cancelled` });
          await changed();
        }}
      />
      {actions.respond && (
        <RespondDialog
          requestId={detail.id}
          question={lastQuestion}
          open={responding}
          onOpenChange={setResponding}
          onDone={() => {
            toast({ variant: 'success', title: 'Answer sent', description: 'The request is back with the approver.' });
            void changed();
          }}
        />
      )}
      {actions.pay && (
        <PayRequestDialog
          request={paying ? detail : null}
          onOpenChange={setPaying}
          onPaid={() => {
            toast({ variant: 'success', title: `${detail.reference} marked paid` });
            void changed();
          }}
        />
      )}
    </article>
  );
}
