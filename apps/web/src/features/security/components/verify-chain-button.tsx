import { ShieldCheck, ShieldAlert } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/api-error';
import { useVerifyAuditChain } from '../api/audit';
import { formatDateTime, plural } from '@/lib/format';

/** "Verify integrity": walks the hash chain on the server and names the first broken row. */
export function VerifyChain({ onShowEvent }: { onShowEvent: (id: number) => void }) {
  const verify = useVerifyAuditChain();
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button variant="outline" onClick={() => verify.mutate()} disabled={verify.isPending}>
          <ShieldCheck aria-hidden="true" />
          {verify.isPending ? 'Verifying…' : 'Verify integrity'}
        </Button>
      </div>
      <div aria-live="polite">
        {verify.isError && (
          <Alert variant="danger">
            <p>{messageOf(verify.error, 'The verification could not run.')}</p>
          </Alert>
        )}
        {verify.data &&
          (verify.data.ok ? (
            <Alert variant="success">
              <ShieldCheck aria-hidden="true" />
              <p>
                Integrity verified: all {plural(verify.data.checked, 'event')} link up and none was changed (
                {formatDateTime(verify.data.verifiedAt)}).
              </p>
            </Alert>
          ) : (
            <Alert variant="danger">
              <ShieldAlert aria-hidden="true" />
              <p>
                The chain is broken at event #{verify.data.firstBrokenId}: it was changed or removed after it was
                written. {plural(verify.data.checked, 'earlier event')} {verify.data.checked === 1 ? 'is' : 'are'}{' '}
                intact.{' '}
                <button
                  type="button"
                  className="font-medium underline"
                  onClick={() => onShowEvent(verify.data!.firstBrokenId!)}
                >
                  Show event #{verify.data.firstBrokenId}
                </button>
              </p>
            </Alert>
          ))}
      </div>
    </div>
  );
}
