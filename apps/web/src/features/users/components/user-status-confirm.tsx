import type { UserItem } from '@outlay/contracts/users';
import { ConfirmDialog } from '@/components/form';
import { toast } from '@/components/ui/use-toast';
import { useSetUserStatus } from '../api/user-status';

export interface StatusChange {
  user: UserItem;
  active: boolean;
}

/** "Deactivate Rita Alvarez?": deactivating signs the user out everywhere at once. */
export function UserStatusConfirm({ change, onClose }: { change: StatusChange | null; onClose: () => void }) {
  const mutation = useSetUserStatus();
  const name = change ? `${change.user.firstName} ${change.user.lastName}` : '';
  return (
    <ConfirmDialog
      open={change !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={change?.active ? `Activate ${name}?` : `Deactivate ${name}?`}
      description={
        change?.active
          ? `${name} will be able to sign in again.`
          : `${name} will be signed out of every device at once and cannot sign in until activated again.`
      }
      destructive={!change?.active}
      confirmLabel={change?.active ? 'Activate' : 'Deactivate'}
      pendingLabel={change?.active ? 'Activating…' : 'Deactivating…'}
      onConfirm={async () => {
        if (!change) return;
        await mutation.mutateAsync({ id: change.user.id, active: change.active });
        toast({ title: change.active ? `${name} is active` : `${name} is deactivated`, variant: 'success' });
      }}
    />
  );
}
