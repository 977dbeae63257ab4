import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { Department } from '@outlay/contracts/organizations';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { DEPARTMENTS_URL } from '../api/keys';
import { useOrganizationOptions } from '../api/organization-options';
import { useUpdateDepartment } from '../api/update-department';
import { ACTIVE_OPTIONS, ActiveBadge } from '@/components/active-badge';
import { CreateDepartmentDialog, EditDepartmentDialog } from '../components/department-form-dialog';

const columns: DataTableColumn<Department>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (d) => <span className="font-medium">{d.name}</span>,
  },
  { id: 'code', header: 'Code', sortable: true },
  { id: 'organizationName', header: 'Organization', sortable: true },
  { id: 'costCenter', header: 'Cost center', sortable: true },
  { id: 'headName', header: 'Head', sortable: true },
  { id: 'parentName', header: 'Parent', sortable: true },
  { id: 'active', header: 'Status', sortable: true, cell: (d) => <ActiveBadge active={d.active} /> },
];

export default function DepartmentManagementPage() {
  const query = useListQuery<Department>({
    url: DEPARTMENTS_URL,
    filters: ['organizationId', 'active'],
    defaultSort: 'name',
  });
  // The Admin menu's roles open the screen; only org.manage changes anything on it.
  const canManage = useHolds('org.manage');
  const organizations = useOrganizationOptions();
  const update = useUpdateDepartment();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Department | null>(null);
  const [deactivating, setDeactivating] = useState<Department | null>(null);

  const setActive = async (department: Department, active: boolean) => {
    await update.mutateAsync({ id: department.id, input: { active } });
    toast({
      title: active ? 'Department reactivated' : 'Department deactivated',
      description: department.name,
      variant: 'success',
    });
  };

  const actionsOf = (d: Department) => (
    <DataTableRowActions
      label={`Actions for ${d.name}`}
      actions={[
        { label: 'Edit', onSelect: () => setEditing(d) },
        d.active
          ? { label: 'Deactivate', destructive: true, separated: true, onSelect: () => setDeactivating(d) }
          : {
              label: 'Reactivate',
              separated: true,
              onSelect: () =>
                void setActive(d, true).catch((error: unknown) =>
                  toast({
                    title: 'Could not reactivate',
                    description: messageOf(error, 'Try again.'),
                    variant: 'destructive',
                  }),
                ),
            },
      ]}
    />
  );

  return (
    <div>
      <PageHeader
        title="Department Management"
        description="Departments per organization: cost center, head and parent department. Departments are deactivated, never deleted."
      />
      {!canManage && <ReadOnlyNote />}
      <DataTable
        label="Departments"
        columns={columns}
        query={query}
        searchPlaceholder="Search name or code…"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="organizationId"
              label="Organization"
              allLabel="All organizations"
              className="sm:w-52"
              options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
            />
            <DataTableFilterSelect
              query={query}
              name="active"
              label="Status"
              options={ACTIVE_OPTIONS}
              allLabel="Any status"
            />
          </>
        }
        actions={
          canManage && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" /> New department
            </Button>
          )
        }
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(d) => (
          <ListCard
            eyebrow={d.code}
            title={d.name}
            badge={<ActiveBadge active={d.active} />}
            actions={canManage ? actionsOf(d) : undefined}
            subtitle={[d.organizationName, d.parentName].filter(Boolean).join(' · ')}
            meta={[d.headName && `Head: ${d.headName}`, d.costCenter && `Cost center ${d.costCenter}`]
              .filter(Boolean)
              .join(' · ')}
          />
        )}
      />
      {creating && (
        <CreateDepartmentDialog open onOpenChange={setCreating} organizationId={query.state.filters.organizationId} />
      )}
      {editing && (
        <EditDepartmentDialog
          key={editing.id}
          department={editing}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => !open && setDeactivating(null)}
        title={`Deactivate ${deactivating?.name ?? 'department'}?`}
        description="It stays in history and reports, and can be reactivated later. People in it keep their accounts."
        confirmLabel="Deactivate"
        onConfirm={() => (deactivating ? setActive(deactivating, false) : undefined)}
      />
    </div>
  );
}
