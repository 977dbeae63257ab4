import { z } from 'zod';
import { ROLES, ROLE_LABELS } from '@outlay/contracts/roles';
import type { UserItem } from '@outlay/contracts/users';
import { FormDialog, FormFieldSelect, useStepUp, useZodForm } from '@/components/form';
import { toast } from '@/components/ui/use-toast';
import { useBulkChangeRole } from '../api/users-bulk-role';
import { plural } from '@/lib/format';

const schema = z.object({ role: z.enum(ROLES, { error: 'Choose a valid role' }) });

/** Gives several people one role (step-up); the server skips those the caller may not change. */
export function UsersBulkRoleDialog({
  users,
  grantable,
  onDone,
}: {
  users: UserItem[];
  grantable: { value: string; label: string }[];
  onDone: (changed: boolean) => void;
}) {
  const stepUp = useStepUp();
  const change = useBulkChangeRole(stepUp);
  const form = useZodForm(schema, {});
  return (
    <>
      <FormDialog
        open
        onOpenChange={(open) => !open && onDone(false)}
        title={`Change the role of ${plural(users.length, 'user')}`}
        description="Each change applies to that person's next request. You can only give roles whose permissions you hold; people you may not change are skipped."
        form={form}
        submitLabel="Change role"
        pendingLabel="Changing…"
        onSubmit={async ({ role }) => {
          const result = await change.mutateAsync({ ids: users.map((u) => u.id), role });
          toast({
            title: `${plural(result.changed, 'user')} ${result.changed === 1 ? 'is' : 'are'} now ${ROLE_LABELS[role]}`,
            description:
              result.skipped.length > 0
                ? `Skipped: ${result.skipped.map((s) => `${s.name ?? 'unknown'} (${s.reason})`).join('; ')}`
                : undefined,
            variant: result.skipped.length > 0 ? 'warning' : 'success',
          });
          onDone(true);
        }}
      >
        <FormFieldSelect name="role" label="New role" options={grantable} required />
      </FormDialog>
      {stepUp.dialog}
    </>
  );
}
