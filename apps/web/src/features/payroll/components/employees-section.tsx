import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Employee, PayrollOrganization } from '@outlay/contracts/payroll';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { ListCard } from '@/components/data-table/list-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDate, formatMoney } from '@/lib/format';
import { EMPLOYEES_URL } from '../api/employee';
import { CreateEmployeeDialog, EditEmployeeDialog } from './employee-form-dialog';

const EMPLOYMENT_OPTIONS = [
  { value: 'current', label: 'Current' },
  { value: 'former', label: 'Former' },
];

const masked = (e: Employee) => (
  <span className="flex flex-wrap items-center gap-1">
    {e.ibanMasked ? (
      <span className="font-mono text-xs" aria-label={`IBAN ending ${e.ibanMasked.slice(-4)}`}>
        {e.ibanMasked}
      </span>
    ) : (
      <span className="text-muted-foreground">None on file</span>
    )}
    {e.pendingBankChange && (
      <Badge variant="warning" data-testid="employee-bank-pending">
        Change to {e.pendingBankChange.ibanMasked ?? 'no IBAN'} awaits confirmation
      </Badge>
    )}
  </span>
);

const COLUMNS: DataTableColumn<Employee>[] = [
  {
    id: 'fullName',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (e) => (
      <div className="flex flex-col">
        <span className="font-medium">{e.fullName}</span>
        <span className="text-xs text-muted-foreground">{e.jobTitle ?? e.email}</span>
      </div>
    ),
  },
  { id: 'employeeNumber', header: 'Number', sortable: true, className: 'font-mono text-xs' },
  { id: 'organizationName', header: 'Organization', sortable: true, sortKey: 'organization' },
  {
    id: 'departmentName',
    header: 'Department',
    sortable: true,
    sortKey: 'department',
    cell: (e) => e.departmentName ?? '—',
  },
  {
    id: 'baseSalary',
    header: 'Monthly base',
    sortable: true,
    align: 'right',
    cell: (e) => <span className="tabular-nums">{formatMoney(e.baseSalary, e.currency)}</span>,
  },
  {
    id: 'startDate',
    header: 'Employed',
    sortable: true,
    cell: (e) =>
      e.endDate ? `${formatDate(e.startDate)} – ${formatDate(e.endDate)}` : `Since ${formatDate(e.startDate)}`,
  },
  { id: 'ibanMasked', header: 'Bank account', cell: masked },
  { id: 'userName', header: 'User account', hidden: true, cell: (e) => e.userName ?? '—' },
];

export function EmployeesSection({ organizations }: { organizations: readonly PayrollOrganization[] }) {
  const query = useListQuery<Employee>({
    url: EMPLOYEES_URL,
    filters: ['organizationId', 'employment'],
    defaultSort: 'fullName',
    urlPrefix: 'people.',
  });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Employee | null>(null);
  const edit = (e: Employee) => (
    <DataTableRowActions
      label={`Actions for ${e.fullName}`}
      actions={[{ label: 'Edit', icon: <Pencil aria-hidden="true" />, onSelect: () => setEditing(e) }]}
    />
  );
  return (
    <>
      <DataTable
        label="Employees"
        entityName="employee"
        exportFilename="employees"
        columns={COLUMNS}
        query={query}
        searchPlaceholder="Name, number or e-mail…"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="employment"
              label="Employment"
              allLabel="Current and former"
              options={EMPLOYMENT_OPTIONS}
              className="sm:w-52"
            />
            {organizations.length > 1 && (
              <DataTableFilterSelect
                query={query}
                name="organizationId"
                label="Organization"
                allLabel="All organizations"
                options={organizations.map((o) => ({ value: o.id, label: o.name }))}
              />
            )}
          </>
        }
        actions={
          <Button onClick={() => setCreating(true)} disabled={organizations.length === 0}>
            <Plus aria-hidden="true" /> New employee
          </Button>
        }
        empty={
          <div className="flex flex-col items-center gap-2 text-center">
            <p className="font-medium">No employees</p>
            <p className="text-sm text-muted-foreground">
              Add the people on this payroll to compute their monthly lines.
            </p>
          </div>
        }
        rowActions={edit}
        renderCard={(e) => (
          <ListCard
            testId="employee-card"
            title={e.fullName}
            subtitle={`${e.employeeNumber} · ${e.organizationName}${e.departmentName ? ` · ${e.departmentName}` : ''}`}
            onOpen={() => setEditing(e)}
            openLabel={`Edit ${e.fullName}`}
            actions={edit(e)}
            meta={masked(e)}
            amount={
              <span>
                <span className="block text-right text-xs font-normal text-muted-foreground">Monthly base</span>
                {formatMoney(e.baseSalary, e.currency)}
              </span>
            }
          />
        )}
      />
      {creating && <CreateEmployeeDialog open={creating} onOpenChange={setCreating} organizations={organizations} />}
      {editing && (
        <EditEmployeeDialog
          key={editing.id}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          employee={editing}
          organization={organizations.find((o) => o.id === editing.organizationId)}
        />
      )}
    </>
  );
}
