import { useState } from 'react';
import type { UserItem } from '@outlay/contracts/users';
import { DataTable, DataTableFilterSelect, useListQuery } from '@/components/data-table';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { SiblingScreens } from '@/components/sibling-screens';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useUserOptions } from '../api/user-options';
import { useBulkSetUserStatus } from '../api/users-bulk-status';
import { USERS_URL } from '../api/users-keys';
import { ROLE_FILTER_OPTIONS, STATUS_FILTER_OPTIONS, USER_COLUMNS, UserCard } from '../components/user-columns';
import { UserImportCard } from '../components/user-import-card';
import { UsersBulkRoleDialog } from '../components/users-bulk-role-dialog';
import { plural } from '@/lib/format';

interface BulkChange {
  users: UserItem[];
  active: boolean;
  clear: () => void;
}

export default function EnhancedUserManagementPage() {
  const query = useListQuery<UserItem>({
    url: USERS_URL,
    filters: ['organizationId', 'role', 'status'],
    defaultSort: 'name',
  });
  const options = useUserOptions();
  // The Settings menu's roles open the screen; only users.manage imports or changes anyone.
  const canManage = useHolds('users.manage');
  const bulk = useBulkSetUserStatus();
  const [change, setChange] = useState<BulkChange | null>(null);
  const [roleChange, setRoleChange] = useState<{ users: UserItem[]; clear: () => void } | null>(null);
  const grantableRoles = (options.data?.roles ?? [])
    .filter((r) => r.grantable)
    .map((r) => ({ value: r.value, label: r.label }));
  const count = change?.users.length ?? 0;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Enhanced User Management"
        description="Bulk import and export, and activate, deactivate or change the role of many users at once."
        className="mb-0"
      />
      {!canManage && <ReadOnlyNote />}
      <SiblingScreens />
      {canManage && <UserImportCard />}
      <section aria-labelledby="bulk-heading" className="flex flex-col gap-3">
        <h2 id="bulk-heading" className="text-lg font-semibold">
          People
        </h2>
        <p className="text-sm text-muted-foreground">
          {canManage
            ? 'Select users to activate, deactivate or change their role together; export the current view as CSV or Excel.'
            : 'Everyone in the group; export the current view as CSV or Excel.'}
        </p>
        <DataTable
          label="Users"
          columns={USER_COLUMNS}
          query={query}
          columnStorageKey="enhanced-users"
          searchPlaceholder="Search name, username or e-mail"
          enableSelection={canManage}
          getRowLabel={(u) => `${u.firstName} ${u.lastName}`}
          renderCard={(u) => <UserCard u={u} />}
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
          bulkActions={
            !canManage
              ? undefined
              : (users, clear) => (
                  <>
                    <Button size="sm" variant="outline" onClick={() => setChange({ users, active: true, clear })}>
                      Activate {users.length}
                    </Button>
                    <Button size="sm" variant="destructive" onClick={() => setChange({ users, active: false, clear })}>
                      Deactivate {users.length}
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setRoleChange({ users, clear })}>
                      Change role
                    </Button>
                  </>
                )
          }
        />
      </section>
      {roleChange && (
        <UsersBulkRoleDialog
          users={roleChange.users}
          grantable={grantableRoles}
          onDone={(changed) => {
            if (changed) roleChange.clear();
            setRoleChange(null);
          }}
        />
      )}
      <ConfirmDialog
        open={change !== null}
        onOpenChange={(open) => (open ? undefined : setChange(null))}
        title={change?.active ? `Activate ${plural(count, 'user')}?` : `Deactivate ${plural(count, 'user')}?`}
        description={
          change?.active
            ? 'They will be able to sign in again.'
            : 'They are signed out of every device at once. You cannot deactivate yourself or the last active owner; those are skipped.'
        }
        destructive={!change?.active}
        confirmLabel={change?.active ? 'Activate' : 'Deactivate'}
        pendingLabel="Working…"
        onConfirm={async () => {
          if (!change) return;
          const result = await bulk.mutateAsync({ ids: change.users.map((u) => u.id), active: change.active });
          change.clear();
          toast({
            title: `${plural(result.changed, 'user')} ${change.active ? 'activated' : 'deactivated'}`,
            description:
              result.skipped.length > 0
                ? `Skipped: ${result.skipped.map((s) => `${s.name ?? 'unknown'} (${s.reason})`).join('; ')}`
                : undefined,
            variant: result.skipped.length > 0 ? 'warning' : 'success',
          });
        }}
      >
        <ul className="max-h-40 list-disc overflow-auto pl-5 text-sm">
          {change?.users.map((u) => (
            <li key={u.id}>
              {u.firstName} {u.lastName} ({u.username})
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </div>
  );
}
