import { ROLE_LABELS, changeRoleInput, type RoleHolder } from '@outlay/contracts/roles';
import { FormDialog, FormFieldSelect, useStepUp, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { useUserOptions } from '@/features/users';
import { useChangeRole } from '../api/role-change';

/** Change one person's system role (step-up; the server refuses what the caller may not grant). */
export function RoleChangeDialog({ user, onClose }: { user: RoleHolder; onClose: () => void }) {
  const stepUp = useStepUp();
  const change = useChangeRole(stepUp);
  const { toast } = useToast();
  const form = useZodForm(changeRoleInput, { role: user.role });
  // Only the roles the caller may grant (the server's list), as the registration review offers;
  // the person's current role stays listed so the form opens on it.
  const options = useUserOptions();
  const roleOptions = (options.data?.roles ?? [])
    .filter((r) => r.grantable || r.value === user.role)
    .map((r) => ({
      value: r.value,
      label: r.value === user.role && !r.grantable ? `${r.label} (current)` : r.label,
      disabled: !r.grantable,
    }));
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
          toast({
            variant: 'success',
            title: 'Role changed',
            description: `${user.firstName} is now ${ROLE_LABELS[role]}.`,
          });
          onClose();
        }}
      >
        <FormFieldSelect name="role" label="Role" options={roleOptions} disabled={options.isPending} required />
      </FormDialog>
      {stepUp.dialog}
    </>
  );
}
