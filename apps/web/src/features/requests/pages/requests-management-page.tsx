import { Banknote, UserRoundCog } from 'lucide-react';
import { useState } from 'react';
import { REQUEST_STATUS_LABELS, REQUEST_STATUS_VALUES, type RequestSummary } from '@outlay/contracts/requests';
import { DataTable, DataTableFilterSelect, DataTableRowActions, useListQuery } from '@/components/data-table';
import { REQUESTS_URL } from '../api/keys';
import { PayRequestDialog } from '../components/request-detail/action-dialogs';
import { PageHeader } from '@/components/page-header';
import { REQUEST_TABS, RouteTabs } from '@/components/route-tabs';
import { ReassignRequestDialog } from '@/components/reassign-dialog';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { useDepartmentOptions, useScopeDepartmentOptions, useOrganizationOptions } from '@/features/organizations';
import { useVendorFilterOptions } from '../api/list-vendor-filter-options';
import { CategoryFilter, DateAmountFilters } from '../components/filter-input';
import { MANAGEMENT_COLUMNS, RequestCard } from '../components/request-columns';
import { RequestDetailSheet, useRequestIdParam } from '../components/request-detail-sheet';

const FILTERS = [
  'status',
  'organizationId',
  'departmentId',
  'categoryId',
  'vendorId',
  'from',
  'to',
  'minAmount',
  'maxAmount',
  'overBudget',
  'withFindings',
] as const;
const STATUS_OPTIONS = REQUEST_STATUS_VALUES.map((value) => ({ value, label: REQUEST_STATUS_LABELS[value] }));
const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** /requests-management: every request in the caller's scope, filters, export, "Mark paid". */
export default function RequestsManagementPage() {
  const query = useListQuery<RequestSummary>({
    url: REQUESTS_URL,
    filters: FILTERS,
    defaultSort: 'updatedAt',
    defaultOrder: 'desc',
  });
  const [openId, setOpenId] = useRequestIdParam();
  const [paying, setPaying] = useState<RequestSummary | null>(null);
  const [reassigning, setReassigning] = useState<RequestSummary | null>(null);
  const { user } = useAuth();
  const canManageApprovals = Boolean(user?.permissions.includes('approvals.manage'));
  const organizationId = query.state.filters.organizationId;
  const organizations = useOrganizationOptions();
  const orgDepartments = useDepartmentOptions(organizationId);
  // Before an organization is chosen (or when the caller sees only one), every department in scope.
  const scopeDepartments = useScopeDepartmentOptions(!organizationId);
  const departments = organizationId ? orgDepartments : scopeDepartments;
  const vendors = useVendorFilterOptions(organizationId);
  const orgs = organizations.data ?? [];
  const groupCurrency = query.data?.items[0]?.groupCurrency;
  const actionsOf = (r: RequestSummary) => {
    const actions = [
      ...(r.status === 'approved'
        ? [{ label: 'Mark paid', icon: <Banknote aria-hidden="true" />, onSelect: () => setPaying(r) }]
        : []),
      // docs/product.md §3.3: reassign from here too, for whoever manages approvals (same dialog as /approvals-management).
      ...(r.status === 'pending' && canManageApprovals
        ? [
            {
              label: 'Reassign approver…',
              icon: <UserRoundCog aria-hidden="true" />,
              onSelect: () => setReassigning(r),
            },
          ]
        : []),
    ];
    return actions.length > 0 ? <DataTableRowActions label={`Actions for ${r.reference}`} actions={actions} /> : null;
  };

  return (
    <div>
      <PageHeader
        title="Requests Management"
        description="Every spending request in your scope: filter, export, open the full record and record payments of approved requests."
      />
      <RouteTabs paths={REQUEST_TABS} label="Request screens" />
      <DataTable
        label="Requests"
        entityName="requests"
        exportFilename="requests"
        columns={MANAGEMENT_COLUMNS}
        query={query}
        searchPlaceholder="Search reference, title or requester…"
        onRowClick={(r) => setOpenId(r.id)}
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_OPTIONS}
            />
            {orgs.length > 1 && (
              <DataTableFilterSelect
                query={{
                  state: query.state,
                  setters: {
                    ...query.setters,
                    setFilter: (name, value) => {
                      query.setters.setFilter(name, value);
                      // A department or vendor of another organization would hide everything.
                      query.setters.setFilter('departmentId', undefined);
                      query.setters.setFilter('vendorId', undefined);
                    },
                  },
                }}
                name="organizationId"
                label="Organization"
                allLabel="All organizations"
                options={orgs.map((o) => ({ value: o.id, label: o.name }))}
              />
            )}
            {(departments.data?.length ?? 0) > 0 && (
              <DataTableFilterSelect
                query={query}
                name="departmentId"
                label="Department"
                allLabel="All departments"
                options={(departments.data ?? []).map((d) => ({
                  value: d.id,
                  label: !organizationId && orgs.length > 1 ? `${d.name} · ${d.organizationName}` : d.name,
                }))}
              />
            )}
            <CategoryFilter query={query} />
            <DataTableFilterSelect
              query={query}
              name="vendorId"
              label="Vendor"
              allLabel="All vendors"
              options={(vendors.data ?? []).map((v) => ({ value: v.id, label: v.name }))}
            />
            <DataTableFilterSelect
              query={query}
              name="overBudget"
              label="Over budget"
              allLabel="Any budget state"
              options={YES_NO}
              className="sm:w-40"
            />
            <DataTableFilterSelect
              query={query}
              name="withFindings"
              label="With findings"
              allLabel="Any findings"
              options={YES_NO}
              className="sm:w-40"
            />
            <DateAmountFilters query={query} currency={groupCurrency} />
          </>
        }
        rowActions={actionsOf}
        renderCard={(r) => <RequestCard r={r} showRequester onOpen={() => setOpenId(r.id)} actions={actionsOf(r)} />}
        empty={
          <div className="flex flex-col items-center gap-2 text-center">
            <p className="font-medium">No requests yet</p>
            <p className="text-sm text-muted-foreground">Requests raised in your scope will appear here.</p>
          </div>
        }
      />
      <PayRequestDialog
        request={paying}
        onOpenChange={(open) => !open && setPaying(null)}
        onPaid={() => toast({ variant: 'success', title: `${paying?.reference ?? 'Request'} marked paid` })}
      />
      {reassigning && (
        <ReassignRequestDialog key={reassigning.id} request={reassigning} onClose={() => setReassigning(null)} />
      )}
      <RequestDetailSheet requestId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
