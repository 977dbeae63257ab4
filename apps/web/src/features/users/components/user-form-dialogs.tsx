import { useCallback, useEffect, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useFormContext, useWatch } from 'react-hook-form';
import { createUserInput, updateUserInput, type UserItem, type UserOptions } from '@outlay/contracts/users';
import { FormDialog, FormFieldSelect, FormFieldText, useVersionedEdit, useZodForm } from '@/components/form';
import { useCreateUser } from '../api/user-create';
import { fetchUser, useUpdateUser } from '../api/user-update';
import { invalidateUsers } from '../api/users-keys';
import { useUserOptions } from '../api/user-options';
import type { TemporaryPasswordShown } from './user-temp-password-dialog';

/** Organization → department (only that organization's) → manager, shared by create and edit. */
function PlacementFields({ options, selfId }: { options: UserOptions | undefined; selfId?: string }) {
  const form = useFormContext<{ organizationId: string; departmentId: string | null | undefined }>();
  const organizationId = useWatch({ control: form.control, name: 'organizationId' });
  const departmentId = useWatch({ control: form.control, name: 'departmentId' });
  const departments = useMemo(
    () => (options?.departments ?? []).filter((d) => d.organizationId === organizationId),
    [options, organizationId],
  );
  // A department of another organization cannot stay selected.
  useEffect(() => {
    if (departmentId && options && !departments.some((d) => d.id === departmentId)) form.setValue('departmentId', null);
  }, [departmentId, departments, options, form]);
  const orgName = new Map((options?.organizations ?? []).map((o) => [o.id, o.code]));
  return (
    <>
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        required
        placeholder="Select an organization"
        options={(options?.organizations ?? []).map((o) => ({ value: o.id, label: o.name, disabled: !o.active }))}
      />
      <FormFieldSelect
        name="departmentId"
        label="Department"
        emptyOption="No department"
        placeholder={organizationId ? 'Select a department' : 'Choose an organization first'}
        disabled={!organizationId}
        options={departments.map((d) => ({ value: d.id, label: `${d.name} (${d.code})`, disabled: !d.active }))}
      />
      <FormFieldSelect
        name="managerId"
        label="Manager"
        emptyOption="No manager"
        placeholder="Select a manager"
        options={(options?.managers ?? [])
          .filter((m) => m.id !== selfId)
          .map((m) => ({
            value: m.id,
            label: `${m.name} (${m.organizationId ? (orgName.get(m.organizationId) ?? '') : ''})`,
          }))}
      />
    </>
  );
}

export function UserCreateDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (shown: TemporaryPasswordShown) => void;
}) {
  const options = useUserOptions();
  const create = useCreateUser();
  const form = useZodForm(createUserInput, {
    firstName: '',
    lastName: '',
    email: '',
    username: '',
    phoneNumber: '',
    role: 'requester',
    organizationId: '',
    departmentId: null,
    managerId: null,
  });
  const roles = (options.data?.roles ?? []).map((r) => ({
    value: r.value,
    label: r.grantable ? r.label : `${r.label} (holds more than you)`,
    disabled: !r.grantable,
  }));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New user"
      description="The user gets a temporary password, shown once, which they must change when they first sign in."
      form={form}
      size="lg"
      submitLabel="Create user"
      pendingLabel="Creating…"
      onSubmit={async (values) => {
        const result = await create.mutateAsync(values);
        onCreated({
          title: 'User created',
          name: `${result.user.firstName} ${result.user.lastName}`,
          username: result.user.username,
          password: result.temporaryPassword,
          expiresAt: result.temporaryPasswordExpiresAt,
        });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="firstName" label="First name" required autoComplete="off" />
        <FormFieldText name="lastName" label="Last name" required autoComplete="off" />
        <FormFieldText name="email" label="E-mail" type="email" required autoComplete="off" />
        <FormFieldText
          name="username"
          label="Username"
          hint="Leave empty for the first name in lower case, made unique."
          autoComplete="off"
        />
        <FormFieldText name="phoneNumber" label="Phone" autoComplete="off" />
        <FormFieldSelect name="role" label="Role" required options={roles} />
        <PlacementFields options={options.data} />
      </div>
    </FormDialog>
  );
}

function editValues(user: UserItem) {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phoneNumber ?? '',
    organizationId: user.organization?.id ?? '',
    departmentId: user.department?.id ?? null,
    managerId: user.manager?.id ?? null,
  };
}

export function UserEditDialog({
  user,
  onOpenChange,
}: {
  user: UserItem | null;
  onOpenChange: (open: boolean) => void;
}) {
  const options = useUserOptions();
  const update = useUpdateUser();
  const form = useZodForm(updateUserInput, {
    firstName: '',
    lastName: '',
    email: '',
    phoneNumber: '',
    organizationId: '',
    departmentId: null,
    managerId: null,
  });
  const queryClient = useQueryClient();
  const load = useCallback(async () => {
    const fresh = await fetchUser(user!.id);
    void invalidateUsers(queryClient);
    return fresh;
  }, [user, queryClient]);
  const versioned = useVersionedEdit({ record: user, form, load, toValues: editValues });
  const { show } = versioned;
  useEffect(() => {
    if (user) show(user);
  }, [user, show]);
  return (
    <FormDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title={user ? `Edit ${user.firstName} ${user.lastName}` : 'Edit user'}
      description="Roles are changed in Role Management."
      form={form}
      size="lg"
      keepValuesOnClose
      onReload={versioned.reload}
      onSubmit={async (values) => {
        versioned.saved(await update.mutateAsync({ id: user!.id, input: values, headers: versioned.headers() }));
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="firstName" label="First name" required autoComplete="off" />
        <FormFieldText name="lastName" label="Last name" required autoComplete="off" />
        <FormFieldText name="email" label="E-mail" type="email" required autoComplete="off" />
        <FormFieldText name="phoneNumber" label="Phone" autoComplete="off" />
        <PlacementFields options={options.data} selfId={user?.id} />
      </div>
    </FormDialog>
  );
}
