import type { Vendor, VendorStatus } from '@outlay/contracts/vendors';
import { ConfirmDialog } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/format';
import { useChangeVendorStatus } from '../api/change-vendor-status';
import { useVendor } from '../api/vendor';

export type StatusAction = { vendor: Vendor; to: VendorStatus } | null;

/** Block (reason required), unblock (shows why it was blocked) or verify a vendor. */
export function VendorStatusDialog({ action, onClose }: { action: StatusAction; onClose: () => void }) {
  const { toast } = useToast();
  const change = useChangeVendorStatus();
  const unblocking = action?.to === 'active' && action.vendor.status === 'blocked';
  const detail = useVendor(unblocking ? action.vendor.id : null);
  if (!action) return null;
  const { vendor, to } = action;

  const run = async (reason: string | undefined) => {
    const saved = await change.mutateAsync({ id: vendor.id, input: { status: to, ...(reason ? { reason } : {}) } });
    const verb = to === 'blocked' ? 'blocked' : unblocking ? 'unblocked' : 'verified';
    toast({
      title: `Vendor ${verb}`,
      description: `${saved.name} is now ${saved.status === 'blocked' ? 'blocked' : 'active'}.`,
    });
  };

  if (to === 'blocked') {
    return (
      <ConfirmDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={`Block ${vendor.name}?`}
        description="A blocked vendor cannot be used on new requests or paid until it is unblocked. The reason is kept in the audit history."
        confirmLabel="Block vendor"
        pendingLabel="Blocking…"
        reason={{
          label: 'Reason for blocking',
          required: true,
          minLength: 3,
          maxLength: 500,
          placeholder: 'e.g. Bank details could not be verified',
        }}
        onConfirm={run}
      />
    );
  }

  const last = detail.data?.lastStatusChange;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      destructive={false}
      title={unblocking ? `Unblock ${vendor.name}?` : `Mark ${vendor.name} as verified?`}
      description={
        unblocking
          ? 'The vendor becomes active again and can be used on requests and payments.'
          : 'Confirm that the tax ID and bank details were checked. The vendor becomes active.'
      }
      confirmLabel={unblocking ? 'Unblock vendor' : 'Mark as verified'}
      pendingLabel="Saving…"
      onConfirm={() => run(undefined)}
    >
      {unblocking && last?.status === 'blocked' && (
        <div className="rounded-md border bg-muted/40 p-3 text-sm">
          <p className="font-medium">
            Blocked {last.actorName ? `by ${last.actorName}` : ''} on {formatDateTime(last.at)}
          </p>
          {last.reason && <p className="mt-1 text-muted-foreground">“{last.reason}”</p>}
        </div>
      )}
    </ConfirmDialog>
  );
}
