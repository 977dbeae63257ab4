import { Pencil, Plus, Trash2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { PERMISSION_LABELS, SCOPE_LABELS, type CustomRole } from '@outlay/contracts/roles';
import { DataTable, DataTableRowActions, ListCard, useListQuery, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog, useStepUp } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { CUSTOM_ROLES_URL, useDeleteCustomRole } from '../api/custom-role-mutations';
import { CustomRoleAssignDialog } from '../components/custom-role-assign-dialog';
import { CustomRoleFormDialog } from '../components/custom-role-form-dialog';
import { formatDateTime, plural } from '@/lib/format';

const COLUMNS: DataTableColumn<CustomRole>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (r) => (
      <div className="flex flex-col">
        <span className="font-medium">{r.name}</span>
        {r.description && <span className="text-xs text-muted-foreground">{r.description}</span>}
      </div>
    ),
  },
  { id: 'scope', header: 'Scope', sortable: true, cell: (r) => SCOPE_LABELS[r.scope] },
  {
    id: 'permissions',
    header: 'Permissions',
    cell: (r) => (
      <ul className="flex max-w-md flex-wrap gap-1" aria-label={`Permissions of ${r.name}`}>
        {r.permissions.map((p) => (
          <li key={p}>
            <Badge variant="outline" title={p}>
              {PERMISSION_LABELS[p]}
            </Badge>
          </li>
        ))}
      </ul>
    ),
  },
  { id: 'holders', header: 'Holders', sortable: true, align: 'right' },
  { id: 'updatedAt', header: 'Last changed', sortable: true, hidden: true, cell: (r) => formatDateTime(r.updatedAt) },
];

/** /custom-roles: permission sets with a scope, assigned on top of system roles (docs/product.md §3.10). */
export default function CustomRolesPage() {
  const query = useListQuery<CustomRole>({ url: CUSTOM_ROLES_URL, defaultSort: 'name' });
  const [editing, setEditing] = useState<CustomRole | 'new' | null>(null);
  const [assigning, setAssigning] = useState<CustomRole | null>(null);
  const [deleting, setDeleting] = useState<CustomRole | null>(null);
  const stepUp = useStepUp();
  const remove = useDeleteCustomRole(stepUp);
  const { toast } = useToast();
  const actionsOf = (r: CustomRole) => (
    <DataTableRowActions
      label={`Actions for ${r.name}`}
      actions={[
        { label: 'Assign to people…', icon: <UserPlus aria-hidden="true" />, onSelect: () => setAssigning(r) },
        { label: 'Edit', icon: <Pencil aria-hidden="true" />, onSelect: () => setEditing(r) },
        {
          label: 'Delete',
          icon: <Trash2 aria-hidden="true" />,
          destructive: true,
          separated: true,
          onSelect: () => setDeleting(r),
        },
      ]}
    />
  );

  return (
    <div>
      <PageHeader
        title="Custom Roles"
        description="Give people extra permissions without changing their system role. Nobody can grant a permission, or a scope, they do not hold."
      />
      <DataTable
        label="Custom roles"
        entityName="custom roles"
        columns={COLUMNS}
        query={query}
        exportFormats={false}
        searchPlaceholder="Search custom roles…"
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            New custom role
          </Button>
        }
        empty={
          <div className="flex flex-col items-center gap-2 text-center">
            <p className="font-medium">No custom roles yet</p>
            <p className="text-sm text-muted-foreground">
              Create one to let, say, an analyst read the audit history without making them an administrator.
            </p>
          </div>
        }
        rowActions={actionsOf}
        renderCard={(r) => (
          <ListCard
            title={r.name}
            actions={actionsOf(r)}
            subtitle={r.description || undefined}
            meta={`${SCOPE_LABELS[r.scope]} · ${plural(r.permissions.length, 'permission')} · ${plural(r.holders, 'holder')}`}
          />
        )}
      />
      {editing && (
        <CustomRoleFormDialog
          key={editing === 'new' ? 'new' : editing.id}
          role={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {assigning && <CustomRoleAssignDialog role={assigning} onClose={() => setAssigning(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete'}
        description={
          deleting && deleting.holders > 0
            ? `It is assigned to ${deleting.holders} ${deleting.holders === 1 ? 'person' : 'people'}; unassign it first.`
            : 'The role is removed for good. The deletion is recorded in the audit history.'
        }
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        onConfirm={async () => {
          const res = await remove.mutateAsync(deleting!.id);
          toast({ variant: 'success', title: res.message });
        }}
      />
      {stepUp.dialog}
    </div>
  );
}
