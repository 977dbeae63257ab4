import { ROLES, ROLE_LABELS, changeRoleInput, type RoleHolder } from '@outlay/contracts/roles';
import { FormDialog, FormFieldSelect, useStepUp, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { useChangeRole } from '../api/role-change';

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

/** Change one person's system role (step-up; the server refuses what the caller may not grant). */
export function RoleChangeDialog({ user, onClose }: { user: RoleHolder; onClose: () => void }) {
  const stepUp = useStepUp();
  const change = useChangeRole(stepUp);
  const { toast } = useToast();
  const form = useZodForm(changeRoleInput, { role: user.role });
  return (
    <>
      <FormDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={`Change role of ${user.firstName} ${user.lastName}`}
        description="The new role applies to their very next request. You can only give roles whose permissions you hold yourself."
        form={form}
        submitLabel="Change role"
        pendingLabel="Changing…"
        onSubmit={async ({ role }) => {
          await change.mutateAsync({ userId: user.id, role });
          toast({ variant: 'success', title: 'Role changed', description: `${user.firstName} is now ${ROLE_LABELS[role]}.` });
          onClose();
        }}
      >
        <FormFieldSelect name="role" label="Role" options={ROLE_OPTIONS} required />
      </FormDialog>
      {stepUp.dialog}
    </>
  );
}
