import type { CustomRole, RoleHolder } from '@outlay/contracts/roles';
import { ROLE_LABELS } from '@outlay/contracts/roles';
import { DataTable, ListCard, useListQuery, type DataTableColumn } from '@/components/data-table';
import { useStepUp } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { messageOf } from '@/lib/api-error';
import { useAssignCustomRole } from '../api/role-change';
import { ROLE_PEOPLE_URL } from '../api/role-overview';
import { customRoleColumn, roleHolderNameColumn } from './role-holder-columns';

const COLUMNS: DataTableColumn<RoleHolder>[] = [roleHolderNameColumn({ withRole: true }), customRoleColumn];

/** Pick people and give them (or take away) one custom role. Step-up protected. */
export function CustomRoleAssignDialog({ role, onClose }: { role: CustomRole; onClose: () => void }) {
  const query = useListQuery<RoleHolder>({ url: ROLE_PEOPLE_URL, defaultSort: 'name', syncUrl: false, pageSize: 10 });
  const stepUp = useStepUp();
  const assign = useAssignCustomRole(stepUp);
  const { toast } = useToast();
  const { user: me } = useAuth();

  const run = async (u: RoleHolder, customRoleId: string | null) => {
    try {
      await assign.mutateAsync({ userId: u.id, customRoleId });
      toast({
        variant: 'success',
        title: customRoleId ? `${role.name} assigned to ${u.firstName}` : `${role.name} removed from ${u.firstName}`,
      });
      void query.refetch();
    } catch (error) {
      toast({ variant: 'destructive', title: 'Not changed', description: messageOf(error, 'The change failed.') });
    }
  };

  const actionOf = (u: RoleHolder) =>
    u.customRoleId === role.id ? (
      <Button
        size="sm"
        variant="outline"
        disabled={assign.isPending || u.id === me?.id}
        onClick={() => void run(u, null)}
        aria-label={`Remove ${role.name} from ${u.firstName} ${u.lastName}`}
      >
        Remove
      </Button>
    ) : (
      <Button
        size="sm"
        disabled={assign.isPending || u.id === me?.id}
        onClick={() => void run(u, role.id)}
        aria-label={`Assign ${role.name} to ${u.firstName} ${u.lastName}`}
      >
        Assign
      </Button>
    );

  return (
    <>
      <Dialog open onOpenChange={(open) => !open && onClose()}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl">
          <DialogHeader>
            <DialogTitle>Assign {role.name}</DialogTitle>
            <DialogDescription>
              The role's permissions apply to a person from their very next request. A person holds at most one custom
              role.
            </DialogDescription>
          </DialogHeader>
          <DataTable
            label="People"
            entityName="people"
            columns={COLUMNS}
            query={query}
            exportFormats={false}
            columnMenu={false}
            searchPlaceholder="Search name, username or e-mail…"
            rowActions={actionOf}
            renderCard={(u) => (
              <ListCard
                title={`${u.firstName} ${u.lastName}`}
                actions={actionOf(u)}
                subtitle={`${u.username} · ${ROLE_LABELS[u.role]}`}
                meta={u.customRoleName ? `Holds ${u.customRoleName}` : undefined}
              />
            )}
          />
        </DialogContent>
      </Dialog>
      {stepUp.dialog}
    </>
  );
}
