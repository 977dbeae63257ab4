import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { Organization } from '@outlay/contracts/organizations';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ORGANIZATIONS_URL } from '../api/keys';
import { ACTIVE_OPTIONS, ActiveBadge } from '@/components/active-badge';
import { formatAmount } from '@/lib/format';
import { CreateOrganizationDialog, EditOrganizationDialog } from '../components/organization-form-dialog';
import { monthName } from '../utils/format';

const KIND_OPTIONS = [
  { value: 'group', label: 'Group' },
  { value: 'subsidiary', label: 'Subsidiary' },
];

const columns: DataTableColumn<Organization>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (o) => <span className="font-medium">{o.name}</span>,
  },
  { id: 'code', header: 'Code', sortable: true },
  {
    id: 'kind',
    header: 'Kind',
    sortable: true,
    cell: (o) => (
      <Badge variant={o.kind === 'group' ? 'purple' : 'primary'}>{o.kind === 'group' ? 'Group' : 'Subsidiary'}</Badge>
    ),
  },
  { id: 'parentName', header: 'Parent', sortable: true },
  { id: 'currency', header: 'Currency', sortable: true },
  {
    id: 'fiscalYearStartMonth',
    header: 'Fiscal year start',
    sortable: true,
    cell: (o) => monthName(o.fiscalYearStartMonth),
  },
  {
    id: 'approvalThreshold',
    header: 'Approval threshold',
    align: 'right',
    accessor: (o) => formatAmount(o.settings.approvalThreshold, o.currency),
  },
  { id: 'departmentCount', header: 'Departments', align: 'right' },
  { id: 'taxId', header: 'Tax id', hidden: true },
  { id: 'address', header: 'Address', hidden: true },
  { id: 'active', header: 'Status', sortable: true, cell: (o) => <ActiveBadge active={o.active} /> },
];

export default function OrganizationManagementPage() {
  const query = useListQuery<Organization>({
    url: ORGANIZATIONS_URL,
    filters: ['kind', 'active'],
    defaultSort: 'name',
  });
  // The Admin menu's roles open the screen; only org.manage changes anything on it.
  const canManage = useHolds('org.manage');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Organization | null>(null);
  const actionsOf = (o: Organization) => (
    <DataTableRowActions label={`Actions for ${o.name}`} actions={[{ label: 'Edit', onSelect: () => setEditing(o) }]} />
  );

  return (
    <div>
      <PageHeader
        title="Organization Management"
        description="The group and its subsidiaries: name, code, base currency, address, tax id and fiscal year."
      />
      {!canManage && <ReadOnlyNote />}
      <DataTable
        label="Organizations"
        columns={columns}
        query={query}
        searchPlaceholder="Search name, code or tax id…"
        toolbar={
          <>
            <DataTableFilterSelect query={query} name="kind" label="Kind" options={KIND_OPTIONS} allLabel="All kinds" />
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
              <Plus aria-hidden="true" /> New subsidiary
            </Button>
          )
        }
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(o) => (
          <ListCard
            eyebrow={o.code}
            title={o.name}
            badge={<ActiveBadge active={o.active} />}
            actions={canManage ? actionsOf(o) : undefined}
            subtitle={[o.kind === 'group' ? 'Group' : 'Subsidiary', o.parentName, o.currency]
              .filter(Boolean)
              .join(' · ')}
            meta={`${o.departmentCount} departments · fiscal year from ${monthName(o.fiscalYearStartMonth)}`}
          />
        )}
      />
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />
      {editing && (
        <EditOrganizationDialog
          key={editing.id}
          organization={editing}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
    </div>
  );
}
