import { LockOpen } from 'lucide-react';
import { useState } from 'react';
import type { LockedItem } from '@outlay/contracts/security';
import { ConfirmDialog } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { useHolds } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useToast } from '@/components/ui/use-toast';
import { useLocked, useUnlock } from '../api/locked';
import { formatDateTime } from '@/lib/format';

/** Usernames and addresses locked out right now, with unlock (docs/product.md §3.10 /auth-security). */
export function LockedAccountsCard() {
  const locked = useLocked();
  const unlock = useUnlock();
  const canUnlock = useHolds('security.manage');
  const { toast } = useToast();
  const [target, setTarget] = useState<LockedItem | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Locked now</CardTitle>
        <CardDescription>Too many failed sign-ins lock a username or an address for a while.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={locked} loadingLabel="Loading locks" errorMessage="Locks could not be loaded.">
          {({ items }) =>
            items.length === 0 ? (
              <p className="text-sm text-muted-foreground">Nothing is locked right now.</p>
            ) : (
              <ul className="flex flex-col divide-y" aria-label="Locked accounts and addresses">
                {items.map((item) => (
                  <li key={item.key} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="flex items-center gap-2 font-medium">
                        <Badge variant={item.kind === 'user' ? 'warning' : 'purple'}>
                          {item.kind === 'user' ? 'User' : 'Address'}
                        </Badge>
                        <span className="truncate">
                          {item.userName ? `${item.userName} (${item.subject})` : item.subject}
                        </span>
                      </p>
                      <p className="text-xs text-muted-foreground">
                        Until {formatDateTime(item.lockedUntil)}
                        {item.lockCount > 1 ? ` · locked ${item.lockCount} times today` : ''}
                      </p>
                    </div>
                    {canUnlock && (
                      <Button size="sm" variant="outline" onClick={() => setTarget(item)}>
                        <LockOpen aria-hidden="true" />
                        Unlock
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </CardContent>
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={target ? `Unlock ${target.kind === 'user' ? target.subject : `address ${target.subject}`}?` : 'Unlock'}
        description="Sign-in attempts will be accepted again at once. The unlock is recorded in the audit history."
        confirmLabel="Unlock"
        pendingLabel="Unlocking…"
        destructive={false}
        onConfirm={async () => {
          const res = await unlock.mutateAsync(target!.key);
          toast({ variant: 'success', title: res.message });
        }}
      />
    </Card>
  );
}
