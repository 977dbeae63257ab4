import { Check, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import type {
  ApproveRegistrationResponse,
  RegistrationRequestItem,
  RegistrationStatus,
} from '@outlay/contracts/registration-requests';
import { DataTable, ListCard, useListQuery, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { RoleBadge } from '@/components/status-badges';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useToast } from '@/components/ui/use-toast';
import { formatDateTime, roleLabel } from '@/lib/format';
import { REGISTRATION_REQUESTS_URL } from '../api/registration-requests';
import { useRejectRegistration } from '../api/registration-reject';
import { RegistrationApproveDialog } from '../components/registration-approve-dialog';
import { RegistrationTempPasswordDialog } from '../components/registration-temp-password-dialog';

type Tab = RegistrationStatus | 'all';
const TABS: { value: Tab; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'all', label: 'All' },
];

const STATUS_BADGE: Record<RegistrationStatus, { variant: BadgeProps['variant']; label: string }> = {
  pending: { variant: 'warning', label: 'Pending' },
  approved: { variant: 'success', label: 'Approved' },
  rejected: { variant: 'danger', label: 'Rejected' },
};

const COLUMNS: DataTableColumn<RegistrationRequestItem>[] = [
  {
    id: 'lastName',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (r) => (
      <div className="flex flex-col">
        <span className="font-medium">
          {r.firstName} {r.lastName}
        </span>
        <span className="text-xs text-muted-foreground">{r.email}</span>
      </div>
    ),
  },
  { id: 'requestedRole', header: 'Requested role', sortable: true, cell: (r) => <RoleBadge role={r.requestedRole} /> },
  {
    id: 'message',
    header: 'Message',
    cell: (r) =>
      r.message ? (
        <span className="block max-w-72 truncate" title={r.message}>
          {r.message}
        </span>
      ) : (
        <span className="text-muted-foreground">—</span>
      ),
  },
  { id: 'createdAt', header: 'Submitted', sortable: true, cell: (r) => formatDateTime(r.createdAt) },
  {
    id: 'status',
    header: 'Status',
    sortable: true,
    cell: (r) => <Badge variant={STATUS_BADGE[r.status].variant}>{STATUS_BADGE[r.status].label}</Badge>,
  },
  {
    id: 'reviewedAt',
    header: 'Decision',
    sortable: true,
    cell: (r) =>
      r.reviewedAt ? (
        <div className="flex max-w-72 flex-col text-xs">
          <span>
            {r.reviewedBy?.name ?? 'Someone'} · {formatDateTime(r.reviewedAt)}
          </span>
          {r.approvedUser && <span className="text-muted-foreground">Username: {r.approvedUser.username}</span>}
          {r.decisionReason && (
            <span className="truncate text-muted-foreground" title={r.decisionReason}>
              Reason: {r.decisionReason}
            </span>
          )}
        </div>
      ) : (
        <span className="text-muted-foreground">Awaiting review</span>
      ),
  },
];

/** /registration-management: review access requests from the public form (docs/product.md §3.9). */
export default function RegistrationManagementPage() {
  const { toast } = useToast();
  const [tab, setTab] = useState<Tab>('pending');
  const params = useMemo(() => (tab === 'all' ? undefined : { status: tab }), [tab]);
  // Within one status the status column says nothing, and pending requests have no decision yet.
  const columns = useMemo(
    () => COLUMNS.filter((c) => (c.id === 'status' ? tab === 'all' : c.id === 'reviewedAt' ? tab !== 'pending' : true)),
    [tab],
  );
  const query = useListQuery<RegistrationRequestItem>({
    url: REGISTRATION_REQUESTS_URL,
    defaultSort: 'createdAt',
    params,
  });
  const [approving, setApproving] = useState<RegistrationRequestItem | null>(null);
  const [rejecting, setRejecting] = useState<RegistrationRequestItem | null>(null);
  const [created, setCreated] = useState<ApproveRegistrationResponse | null>(null);
  const reject = useRejectRegistration();
  // The Settings menu's roles open the screen; only users.manage approves or rejects.
  const canDecide = useHolds('users.manage');
  const decisionsOf = (r: RegistrationRequestItem) => (
    <>
      <Button size="sm" onClick={() => setApproving(r)} aria-label={`Approve ${r.firstName} ${r.lastName}`}>
        <Check aria-hidden="true" />
        Approve
      </Button>
      <Button
        size="sm"
        variant="outline"
        onClick={() => setRejecting(r)}
        aria-label={`Reject ${r.firstName} ${r.lastName}`}
      >
        <X aria-hidden="true" />
        Reject
      </Button>
    </>
  );

  return (
    <div>
      <PageHeader
        title="Registration Requests"
        description="Access requests from the public registration form. Approving creates the user with a temporary password."
      />
      {!canDecide && <ReadOnlyNote />}
      <Tabs
        value={tab}
        onValueChange={(value) => {
          setTab(value as Tab);
          query.setters.setPage(1);
        }}
        className="mb-4"
      >
        <TabsList aria-label="Request status" className="w-full sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            <DataTable
              label="Registration requests"
              entityName={tab === 'all' ? 'registration requests' : `${tab} requests`}
              columns={columns}
              query={query}
              columnStorageKey="registration-requests"
              searchPlaceholder="Search by name or e-mail…"
              exportFilename="registration-requests"
              empty={
                <p className="text-center text-sm text-muted-foreground">
                  {tab === 'pending'
                    ? 'No requests are waiting for review.'
                    : `No ${tab === 'all' ? '' : `${tab} `}requests.`}
                </p>
              }
              rowActions={
                canDecide
                  ? (r) =>
                      r.status === 'pending' ? <div className="flex justify-end gap-2">{decisionsOf(r)}</div> : null
                  : undefined
              }
              renderCard={(r) => (
                <ListCard
                  title={`${r.firstName} ${r.lastName}`}
                  badge={<Badge variant={STATUS_BADGE[r.status].variant}>{STATUS_BADGE[r.status].label}</Badge>}
                  subtitle={`${r.email} · asks to be ${roleLabel(r.requestedRole)}`}
                  meta={
                    r.reviewedAt
                      ? `${r.reviewedBy?.name ?? 'Someone'} decided ${formatDateTime(r.reviewedAt)}${r.approvedUser ? ` · username ${r.approvedUser.username}` : ''}`
                      : `Submitted ${formatDateTime(r.createdAt)}`
                  }
                  footer={canDecide && r.status === 'pending' ? decisionsOf(r) : undefined}
                />
              )}
            />
          </TabsContent>
        ))}
      </Tabs>
      {approving && (
        <RegistrationApproveDialog
          key={approving.id}
          request={approving}
          onOpenChange={(open) => !open && setApproving(null)}
          onApproved={(result) => {
            setApproving(null);
            setCreated(result);
          }}
        />
      )}
      {created && <RegistrationTempPasswordDialog result={created} onClose={() => setCreated(null)} />}
      {rejecting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setRejecting(null)}
          title={`Reject ${rejecting.firstName} ${rejecting.lastName}?`}
          description={`${rejecting.email} will not get an account. The reason is kept with the request.`}
          confirmLabel="Reject request"
          pendingLabel="Rejecting…"
          reason={{
            label: 'Reason',
            required: true,
            minLength: 3,
            maxLength: 500,
            placeholder: 'e.g. Not an employee of the group',
          }}
          onConfirm={async (reason) => {
            await reject.mutateAsync({ id: rejecting.id, reason: reason ?? '' });
            toast({
              title: 'Request rejected',
              description: `${rejecting.firstName} ${rejecting.lastName}'s request was rejected.`,
            });
          }}
        />
      )}
    </div>
  );
}
