import { assignCustomRoleInput, type CustomRole, type RoleHolder } from '@outlay/contracts/roles';
import { FormDialog, FormFieldSelect, useStepUp, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { useAssignCustomRole } from '../api/role-change';

/** Give one person a custom role on top of their system role, or take it away (step-up). */
export function RoleCustomAssignDialog({
  user,
  customRoles,
  onClose,
}: {
  user: RoleHolder;
  customRoles: CustomRole[];
  onClose: () => void;
}) {
  const stepUp = useStepUp();
  const assign = useAssignCustomRole(stepUp);
  const { toast } = useToast();
  const form = useZodForm(assignCustomRoleInput, { customRoleId: user.customRoleId });
  return (
    <>
      <FormDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={`Custom role of ${user.firstName} ${user.lastName}`}
        description="A custom role adds its permissions to the system role. It applies to their very next request."
        form={form}
        submitLabel="Save"
        onSubmit={async ({ customRoleId }) => {
          const res = await assign.mutateAsync({ userId: user.id, customRoleId });
          toast({
            variant: 'success',
            title: res.customRoleName
              ? `${user.firstName} now holds ${res.customRoleName}`
              : `Custom role removed from ${user.firstName}`,
          });
          onClose();
        }}
      >
        <FormFieldSelect
          name="customRoleId"
          label="Custom role"
          emptyOption="No custom role"
          options={customRoles.map((r) => ({ value: r.id, label: r.name }))}
        />
      </FormDialog>
      {stepUp.dialog}
    </>
  );
}
