import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { UserItem } from '@outlay/contracts/users';
import { DataTable, DataTableFilterSelect, DataTableRowActions, useListQuery } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { SiblingScreens } from '@/components/sibling-screens';
import { Button } from '@/components/ui/button';
import { useUserOptions } from '../api/user-options';
import { USERS_URL } from '../api/users-keys';
import { ROLE_FILTER_OPTIONS, STATUS_FILTER_OPTIONS, USER_COLUMNS, UserCard } from '../components/user-columns';
import { UserCreateDialog, UserEditDialog } from '../components/user-form-dialogs';
import { UserStatusConfirm, type StatusChange } from '../components/user-status-confirm';
import { UserTempPasswordDialog, type TemporaryPasswordShown } from '../components/user-temp-password-dialog';

export default function UserManagementPage() {
  const query = useListQuery<UserItem>({
    url: USERS_URL,
    filters: ['organizationId', 'role', 'status'],
    defaultSort: 'name',
  });
  const options = useUserOptions();
  // The Settings menu's roles open the screen; only users.manage changes anyone on it.
  const canManage = useHolds('users.manage');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserItem | null>(null);
  const [statusChange, setStatusChange] = useState<StatusChange | null>(null);
  const [shown, setShown] = useState<TemporaryPasswordShown | null>(null);

  const actionsOf = (u: UserItem) => (
    <DataTableRowActions
      label={`Actions for ${u.firstName} ${u.lastName}`}
      actions={[
        { label: 'Edit', onSelect: () => setEditing(u) },
        u.status === 'active'
          ? {
              label: 'Deactivate',
              destructive: true,
              separated: true,
              onSelect: () => setStatusChange({ user: u, active: false }),
            }
          : { label: 'Activate', separated: true, onSelect: () => setStatusChange({ user: u, active: true }) },
      ]}
    />
  );

  return (
    <div>
      <PageHeader
        title="User Management"
        description="People in your organizations: create, edit, activate and deactivate."
        actions={
          canManage && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              New user
            </Button>
          )
        }
      />
      {!canManage && <ReadOnlyNote />}
      <SiblingScreens />
      <DataTable
        label="Users"
        columns={USER_COLUMNS}
        query={query}
        searchPlaceholder="Search name, username or e-mail"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="organizationId"
              label="Organization"
              allLabel="All organizations"
              options={(options.data?.organizations ?? []).map((o) => ({ value: o.id, label: o.name }))}
            />
            <DataTableFilterSelect
              query={query}
              name="role"
              label="Role"
              allLabel="All roles"
              options={ROLE_FILTER_OPTIONS}
            />
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_FILTER_OPTIONS}
            />
          </>
        }
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(u) => <UserCard u={u} actions={canManage ? actionsOf(u) : undefined} />}
      />
      <UserCreateDialog open={creating} onOpenChange={setCreating} onCreated={setShown} />
      <UserEditDialog user={editing} onOpenChange={(open) => (open ? undefined : setEditing(null))} />
      <UserStatusConfirm change={statusChange} onClose={() => setStatusChange(null)} />
      <UserTempPasswordDialog shown={shown} onClose={() => setShown(null)} />
    </div>
  );
}
