import { useState } from 'react';
import type { Vendor } from '@outlay/contracts/vendors';
import { useStepUp } from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { useBankChange } from '../api/bank-change';

/**
 * A change of the bank account on file waits for a second person: anyone else who manages
 * vendors may confirm it (after a password check), anyone may discard it. `onDone` runs after
 * either (the edit form closes: its copy of the vendor is out of date then).
 */
export function PendingBankChange({
  vendor,
  onDone,
}: {
  vendor: Pick<Vendor, 'id' | 'name' | 'bankAccountMasked' | 'pendingBankChange'>;
  onDone?: () => void;
}) {
  const pending = vendor.pendingBankChange;
  const { user } = useAuth();
  const { toast } = useToast();
  const stepUp = useStepUp();
  const { confirm, discard } = useBankChange(stepUp.withStepUp);
  const [error, setError] = useState<string | null>(null);
  if (!pending) return null;
  const own = pending.requestedById === user?.id;
  const busy = confirm.isPending || discard.isPending;
  const run = async (action: typeof confirm, done: string) => {
    setError(null);
    try {
      await action.mutateAsync(vendor.id);
      toast({ title: done, description: vendor.name });
      onDone?.();
    } catch (e) {
      setError(messageOf(e, 'Could not change the bank account.'));
    }
  };
  return (
    <Alert variant="warning" data-testid="pending-bank-change" className="flex-col">
      <p>
        Bank account change waiting for confirmation: <span className="font-mono">{pending.bankAccountMasked}</span>,
        requested
        {pending.requestedByName ? ` by ${pending.requestedByName}` : ''} on {formatDateTime(pending.requestedAt)}.
        Payments go to{' '}
        {vendor.bankAccountMasked ? <span className="font-mono">{vendor.bankAccountMasked}</span> : 'no account'} until
        someone else who manages vendors confirms it.
      </p>
      {own && <p id={`own-bank-change-${vendor.id}`}>You asked for this change, so someone else must confirm it.</p>}
      {error && <p role="alert">{error}</p>}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          size="sm"
          disabled={own || busy}
          aria-describedby={own ? `own-bank-change-${vendor.id}` : undefined}
          onClick={() => void run(confirm, 'Bank account change confirmed')}
        >
          Confirm change
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => void run(discard, 'Bank account change discarded')}
        >
          Discard change
        </Button>
      </div>
      {stepUp.dialog}
    </Alert>
  );
}

/** The list's mark of a vendor whose bank account change waits for confirmation. */
export function PendingBankBadge({ vendor }: { vendor: Pick<Vendor, 'pendingBankChange'> }) {
  if (!vendor.pendingBankChange) return null;
  return (
    <Badge variant="warning" className="whitespace-normal" data-testid="vendor-bank-pending">
      Change to {vendor.pendingBankChange.bankAccountMasked} awaits confirmation
    </Badge>
  );
}
