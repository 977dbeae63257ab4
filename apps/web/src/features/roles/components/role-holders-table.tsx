import { useState } from 'react';
import type { CustomRole, RoleHolder } from '@outlay/contracts/roles';
import { ROLE_LABELS } from '@outlay/contracts/roles';
import { DataTable, DataTableRowActions, ListCard, useListQuery, type DataTableColumn } from '@/components/data-table';
import { useHolds } from '@/components/read-only-note';
import { StatusBadge } from '@/components/status-badges';
import { useAuth } from '@/lib/current-user';
import { RoleChangeDialog } from './role-change-dialog';
import { RoleCustomAssignDialog } from './role-custom-assign-dialog';
import { customRoleColumn, roleHolderNameColumn } from './role-holder-columns';

const COLUMNS: DataTableColumn<RoleHolder>[] = [
  roleHolderNameColumn({ withRole: false }),
  { id: 'role', header: 'Role', cell: (u) => ROLE_LABELS[u.role] },
  customRoleColumn,
  { id: 'organizationName', header: 'Organization', sortable: true },
  { id: 'departmentName', header: 'Department', sortable: true },
  {
    id: 'status',
    header: 'Status',
    sortable: true,
    cell: (u) => <StatusBadge status={u.status} />,
  },
  { id: 'email', header: 'E-mail', sortable: true, hidden: true },
];

/** People (of one role, or everyone in scope) with "change role" and "custom role" actions for roles.manage. */
export function RoleHoldersTable({
  url,
  label,
  customRoles,
  urlPrefix,
}: {
  url: string;
  label: string;
  customRoles: CustomRole[];
  urlPrefix?: string;
}) {
  const query = useListQuery<RoleHolder>({ url, defaultSort: 'name', urlPrefix });
  const { user: me } = useAuth();
  const canManage = useHolds('roles.manage');
  const [changing, setChanging] = useState<RoleHolder | null>(null);
  const [assigning, setAssigning] = useState<RoleHolder | null>(null);
  const actionsOf = (u: RoleHolder) => (
    <DataTableRowActions
      label={`Actions for ${u.firstName} ${u.lastName}`}
      actions={[
        { label: 'Change role…', onSelect: () => setChanging(u), disabled: u.id === me?.id },
        { label: 'Custom role…', onSelect: () => setAssigning(u), disabled: u.id === me?.id },
      ]}
    />
  );
  return (
    <>
      <DataTable
        label={label}
        entityName="people"
        columns={COLUMNS}
        query={query}
        exportFormats={false}
        searchPlaceholder="Search name, username or e-mail…"
        empty={<p className="text-sm text-muted-foreground">Nobody holds this role.</p>}
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(u) => (
          <ListCard
            title={`${u.firstName} ${u.lastName}`}
            badge={<StatusBadge status={u.status} />}
            actions={canManage ? actionsOf(u) : undefined}
            subtitle={[u.username, ROLE_LABELS[u.role], u.customRoleName].filter(Boolean).join(' · ')}
            meta={[u.organizationName, u.departmentName].filter(Boolean).join(' · ') || undefined}
          />
        )}
      />
      {changing && <RoleChangeDialog key={changing.id} user={changing} onClose={() => setChanging(null)} />}
      {assigning && (
        <RoleCustomAssignDialog
          key={assigning.id}
          user={assigning}
          customRoles={customRoles}
          onClose={() => setAssigning(null)}
        />
      )}
    </>
  );
}
