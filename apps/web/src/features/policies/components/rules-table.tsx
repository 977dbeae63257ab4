import { History, Pencil, Power, Trash2 } from 'lucide-react';
import {
  POLICY_ACTION_LABELS,
  POLICY_ACTION_VALUES,
  POLICY_KIND_LABELS,
  POLICY_KIND_VALUES,
  type PolicyRule,
} from '@outlay/contracts/policies';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
  type RowAction,
} from '@/components/data-table';
import { useHolds } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { POLICIES_URL, useDeletePolicy, useSetPolicyActive } from '../api/policies';
import { PolicyActionBadge } from './action-badge';
import type { ReactNode } from 'react';

const KIND_FILTER = POLICY_KIND_VALUES.map((value) => ({ value, label: POLICY_KIND_LABELS[value] }));
const ACTION_FILTER = POLICY_ACTION_VALUES.map((value) => ({ value, label: POLICY_ACTION_LABELS[value] }));
const ACTIVE_FILTER = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

function dates(r: PolicyRule): string {
  if (!r.effectiveFrom && !r.effectiveTo) return 'Always';
  return `${r.effectiveFrom ?? '…'} – ${r.effectiveTo ?? '…'}`;
}

function columnsFor(enhanced: boolean): DataTableColumn<PolicyRule>[] {
  const cols: DataTableColumn<PolicyRule>[] = [
    {
      id: 'name',
      header: 'Rule',
      sortable: true,
      hideable: false,
      cell: (r) => (
        <div className="flex min-w-40 flex-col whitespace-normal">
          <span className="font-medium">{r.name}</span>
          <span className="text-xs text-muted-foreground">{r.organizationName ?? 'Every organization'}</span>
        </div>
      ),
    },
    {
      id: 'kind',
      header: 'Kind',
      sortable: true,
      className: 'whitespace-normal',
      cell: (r) => POLICY_KIND_LABELS[r.kind],
    },
    {
      id: 'summary',
      header: 'Settings',
      className: 'min-w-48 max-w-xs whitespace-normal',
      cell: (r) => <span className="text-sm">{r.summary}</span>,
    },
    { id: 'action', header: 'Action', sortable: true, cell: (r) => <PolicyActionBadge action={r.action} /> },
    {
      id: 'active',
      header: 'Status',
      sortable: true,
      cell: (r) => <Badge variant={r.active ? 'success' : 'default'}>{r.active ? 'Active' : 'Inactive'}</Badge>,
    },
  ];
  if (enhanced) {
    cols.splice(1, 0, { id: 'priority', header: 'Priority', sortable: true, align: 'right' });
    cols.push(
      { id: 'effective', header: 'Effective', cell: dates },
      { id: 'version', header: 'Version', sortable: true, align: 'right', cell: (r) => `v${r.version}` },
    );
  } else {
    cols.push({
      id: 'version',
      header: 'Version',
      sortable: true,
      align: 'right',
      hidden: true,
      cell: (r) => `v${r.version}`,
    });
  }
  return cols;
}
const SIMPLE = columnsFor(false);
const ENHANCED = columnsFor(true);

/** The rules (list protocol) with row actions: versions, and for policies.manage edit, activate/deactivate, delete. */
export function RulesTable({
  enhanced,
  onEdit,
  onVersions,
  actions,
}: {
  enhanced: boolean;
  onEdit: (r: PolicyRule) => void;
  onVersions?: (r: PolicyRule) => void;
  actions?: ReactNode;
}) {
  const { toast } = useToast();
  const query = useListQuery<PolicyRule>({
    url: POLICIES_URL,
    filters: ['kind', 'action', 'active'],
    defaultSort: 'priority',
  });
  const toggle = useSetPolicyActive();
  const remove = useDeletePolicy();
  const canManage = useHolds('policies.manage');

  const actionsFor = (r: PolicyRule): RowAction[] => {
    const list: RowAction[] = canManage
      ? [{ label: 'Edit', icon: <Pencil aria-hidden="true" />, onSelect: () => onEdit(r) }]
      : [];
    if (onVersions)
      list.push({ label: 'Version history', icon: <History aria-hidden="true" />, onSelect: () => onVersions(r) });
    if (!canManage) return list;
    list.push({
      label: r.active ? 'Deactivate' : 'Activate',
      icon: <Power aria-hidden="true" />,
      onSelect: () =>
        toggle.mutate(
          { id: r.id, active: !r.active },
          {
            onSuccess: (saved) =>
              toast({
                title: saved.active ? 'Rule activated' : 'Rule deactivated',
                description: `${saved.name} is at version ${saved.version}.`,
              }),
            onError: (e) =>
              toast({
                title: 'Could not change the rule',
                description: messageOf(e, 'Try again.'),
                variant: 'destructive',
              }),
          },
        ),
    });
    list.push({
      label: 'Delete',
      icon: <Trash2 aria-hidden="true" />,
      destructive: true,
      separated: true,
      onSelect: () =>
        remove.mutate(r.id, {
          onSuccess: () => toast({ title: 'Rule deleted', description: r.name }),
          onError: (e) =>
            toast({
              title: 'Could not delete the rule',
              description: messageOf(e, 'Try again.'),
              variant: 'destructive',
            }),
        }),
    });
    return list;
  };

  return (
    <DataTable
      label="Policy rules"
      entityName="rules"
      columns={enhanced ? ENHANCED : SIMPLE}
      query={query}
      exportFormats={false}
      searchPlaceholder="Search rules…"
      toolbar={
        <>
          <DataTableFilterSelect query={query} name="kind" label="Kind" allLabel="All kinds" options={KIND_FILTER} />
          <DataTableFilterSelect
            query={query}
            name="action"
            label="Action"
            allLabel="All actions"
            options={ACTION_FILTER}
          />
          <DataTableFilterSelect
            query={query}
            name="active"
            label="Status"
            allLabel="Active and inactive"
            options={ACTIVE_FILTER}
          />
        </>
      }
      actions={actions}
      empty={
        <div className="flex flex-col items-center gap-2 text-center">
          <p className="font-medium">No rules yet</p>
          <p className="text-sm text-muted-foreground">Add a rule to check requests as they are raised.</p>
        </div>
      }
      rowActions={
        canManage || onVersions
          ? (r) => <DataTableRowActions label={`Actions for ${r.name}`} actions={actionsFor(r)} />
          : undefined
      }
      renderCard={(r) => (
        <ListCard
          eyebrow={enhanced ? `Priority ${r.priority} · v${r.version}` : undefined}
          title={r.name}
          badge={<Badge variant={r.active ? 'success' : 'default'}>{r.active ? 'Active' : 'Inactive'}</Badge>}
          actions={
            canManage || onVersions ? (
              <DataTableRowActions label={`Actions for ${r.name}`} actions={actionsFor(r)} />
            ) : undefined
          }
          subtitle={`${POLICY_KIND_LABELS[r.kind]} · ${r.organizationName ?? 'Every organization'}`}
          meta={
            <>
              <span className="block text-foreground">{r.summary}</span>
              {enhanced && <span className="block">Effective: {dates(r)}</span>}
            </>
          }
          amount={<PolicyActionBadge action={r.action} />}
        />
      )}
    />
  );
}
