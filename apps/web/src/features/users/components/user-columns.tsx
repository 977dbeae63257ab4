import type { ReactNode } from 'react';
import type { UserItem } from '@outlay/contracts/users';
import { ListCard, type DataTableColumn } from '@/components/data-table';
import { RoleBadge, StatusBadge } from '@/components/status-badges';
import { ROLES, USER_STATUSES } from '@outlay/contracts/roles';
import { capitalize, formatDateTime, roleLabel } from '@/lib/format';

/** The people table's columns, shared by /user-management and /enhanced-user-management. */
export const USER_COLUMNS: DataTableColumn<UserItem>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (u) => (
      <div className="min-w-0">
        <div className="font-medium text-foreground">
          {u.firstName} {u.lastName}
        </div>
        <div className="text-xs text-muted-foreground">{u.username}</div>
      </div>
    ),
  },
  { id: 'email', header: 'E-mail', sortable: true },
  { id: 'role', header: 'Role', sortable: true, cell: (u) => <RoleBadge role={u.role} /> },
  { id: 'organization', header: 'Organization', sortable: true, accessor: (u) => u.organization?.name },
  { id: 'department', header: 'Department', sortable: true, accessor: (u) => u.department?.name },
  { id: 'manager', header: 'Manager', accessor: (u) => u.manager?.name, hidden: true },
  { id: 'phoneNumber', header: 'Phone', hidden: true },
  { id: 'status', header: 'Status', sortable: true, cell: (u) => <StatusBadge status={u.status} /> },
  {
    id: 'lastLoginAt',
    header: 'Last sign-in',
    sortable: true,
    accessor: (u) => formatDateTime(u.lastLoginAt) ?? 'Never',
  },
];

/** A person on a phone: name, status, username and e-mail, role and where they work. */
export function UserCard({ u, actions }: { u: UserItem; actions?: ReactNode }) {
  return (
    <ListCard
      title={`${u.firstName} ${u.lastName}`}
      badge={<StatusBadge status={u.status} />}
      actions={actions}
      subtitle={`${u.username} · ${u.email}`}
      meta={[roleLabel(u.role), u.organization?.name, u.department?.name].filter(Boolean).join(' · ')}
    />
  );
}

export const ROLE_FILTER_OPTIONS = ROLES.map((r) => ({ value: r, label: roleLabel(r) }));
export const STATUS_FILTER_OPTIONS = USER_STATUSES.map((s) => ({ value: s, label: capitalize(s) }));
