import type { RoleHolder } from '@outlay/contracts/roles';
import { ROLE_LABELS } from '@outlay/contracts/roles';
import type { DataTableColumn } from '@/components/data-table';
import { Badge } from '@/components/ui/badge';

/** A person's name over their username (and, where no role column follows, their role). */
export function roleHolderNameColumn({ withRole }: { withRole: boolean }): DataTableColumn<RoleHolder> {
  return {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (u) => (
      <div className="flex flex-col">
        <span className="font-medium">
          {u.firstName} {u.lastName}
        </span>
        <span className="text-xs text-muted-foreground">
          {withRole ? `${u.username} · ${ROLE_LABELS[u.role]}` : u.username}
        </span>
      </div>
    ),
  };
}

export const customRoleColumn: DataTableColumn<RoleHolder> = {
  id: 'customRoleName',
  header: 'Custom role',
  cell: (u) => (u.customRoleName ? <Badge variant="purple">{u.customRoleName}</Badge> : '—'),
};
