import { useEffect, useRef } from 'react';
import {
  approveRegistrationInput,
  type ApproveRegistrationResponse,
  type AssignableOrganizations,
  type AssignableRoles,
  type RegistrationRequestItem,
} from '@outlay/contracts/registration-requests';
import type { Role } from '@outlay/contracts/roles';
import { FormDialog, FormFieldSelect, useZodForm } from '@/components/form';
import { QueryError } from '@/components/query-state';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { roleLabel } from '@/lib/format';
import { useApproveRegistration } from '../api/registration-approve';
import { useAssignableOrganizations } from '../api/registration-assignable-organizations';
import { useAssignableRoles } from '../api/registration-assignable-roles';

interface Props {
  request: RegistrationRequestItem;
  onOpenChange: (open: boolean) => void;
  onApproved: (result: ApproveRegistrationResponse) => void;
}

/** The e-mail's domain suggests the organization: omar@meridiantech.com → Meridian Tech. */
function guessOrganization(email: string, orgs: readonly { id: string; name: string }[]): string | undefined {
  const host = email.split('@')[1]?.split('.').at(-2) ?? '';
  return orgs.find((o) => o.name.toLowerCase().replace(/[^a-z]/g, '') === host)?.id;
}

type Options = { roles: AssignableRoles['items']; orgs: AssignableOrganizations['items'] };

export function RegistrationApproveDialog({ request, onOpenChange, onApproved }: Props) {
  const roles = useAssignableRoles();
  const organizations = useAssignableOrganizations();
  if (roles.data && organizations.data) {
    return (
      <ApproveForm
        request={request}
        onOpenChange={onOpenChange}
        onApproved={onApproved}
        roles={roles.data.items}
        orgs={organizations.data.items}
      />
    );
  }
  const error = roles.error ?? organizations.error;
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>{`Approve ${request.firstName} ${request.lastName}`}</DialogTitle>
        </DialogHeader>
        {error ? (
          <QueryError
            error={error}
            message="Could not load the roles and organizations you can assign."
            onRetry={() => Promise.all([roles.refetch(), organizations.refetch()])}
          />
        ) : (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading roles and organizations" /> Loading roles and organizations…
          </p>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ApproveForm({ request, onOpenChange, onApproved, roles, orgs }: Props & Options) {
  const approve = useApproveRegistration();
  const requested = roles.some((r) => r.value === request.requestedRole) ? (request.requestedRole as Role) : undefined;
  const suggestedOrg = orgs.length === 1 ? orgs[0]!.id : guessOrganization(request.email, orgs);
  const form = useZodForm(approveRegistrationInput, {
    role: requested,
    organizationId: suggestedOrg,
    departmentId: null,
  });

  const organizationId = form.watch('organizationId');
  const departments = orgs.find((o) => o.id === organizationId)?.departments ?? [];
  const lastOrg = useRef(organizationId);
  useEffect(() => {
    // A department belongs to one organization: choosing another clears it.
    if (lastOrg.current !== organizationId) {
      lastOrg.current = organizationId;
      form.setValue('departmentId', null);
    }
  }, [organizationId, form]);

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Approve ${request.firstName} ${request.lastName}`}
      description={`Creates the account for ${request.email} with a temporary password. They asked for: ${roleLabel(request.requestedRole)}.`}
      form={form}
      submitLabel="Approve and create user"
      pendingLabel="Creating user…"
      onSubmit={async (input) => {
        const result = await approve.mutateAsync({ id: request.id, input });
        onApproved(result);
      }}
    >
      <FormFieldSelect
        name="role"
        label="Final role"
        required
        placeholder="Choose a role"
        options={roles.map((r) => ({
          value: r.value,
          label: r.value === request.requestedRole ? `${r.label} (requested)` : r.label,
        }))}
        hint="Only roles whose permissions you hold yourself are offered."
      />
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        required
        placeholder="Choose an organization"
        options={orgs.map((o) => ({ value: o.id, label: o.name }))}
      />
      <FormFieldSelect
        name="departmentId"
        label="Department"
        disabled={!organizationId}
        placeholder={organizationId ? 'No department' : 'Choose an organization first'}
        emptyOption="No department"
        options={departments.map((d) => ({ value: d.id, label: d.name }))}
      />
    </FormDialog>
  );
}
