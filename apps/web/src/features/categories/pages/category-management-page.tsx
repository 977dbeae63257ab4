import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { Category } from '@outlay/contracts/categories';
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
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { useCategoryOptions } from '../api/list-category-options';
import { CATEGORIES_URL } from '../api/keys';
import { useUpdateCategory } from '../api/update-category';
import { CreateCategoryDialog, EditCategoryDialog } from '../components/category-form-dialog';
import { ACTIVE_OPTIONS, ActiveBadge } from '@/components/active-badge';
import { CategoryLimits } from '../components/category-limits';

const LIMIT_KINDS = ['category_limit_request', 'category_limit_month'] as const;
const RECEIPT_KINDS = ['receipt_required'] as const;

const columns: DataTableColumn<Category>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (c) => <span className="font-medium">{c.name}</span>,
  },
  { id: 'code', header: 'Code', sortable: true },
  { id: 'glAccount', header: 'GL account', sortable: true },
  { id: 'parentName', header: 'Parent', sortable: true },
  {
    id: 'limits',
    header: 'Limit',
    className: 'whitespace-normal',
    cell: (c) => <CategoryLimits category={c} kinds={LIMIT_KINDS} empty="No limit" />,
  },
  {
    id: 'receipts',
    header: 'Receipt required above',
    className: 'whitespace-normal',
    cell: (c) => <CategoryLimits category={c} kinds={RECEIPT_KINDS} empty="Never" />,
  },
  { id: 'organizationName', header: 'Applies to', accessor: (c) => c.organizationName ?? 'Whole group', hidden: true },
  { id: 'active', header: 'Status', sortable: true, cell: (c) => <ActiveBadge active={c.active} /> },
];

export default function CategoryManagementPage() {
  const query = useListQuery<Category>({ url: CATEGORIES_URL, filters: ['active', 'parentId'], defaultSort: 'name' });
  // The Admin menu's roles open the screen; only org.manage changes anything on it.
  const canManage = useHolds('org.manage');
  const parents = useCategoryOptions();
  const update = useUpdateCategory();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Category | null>(null);

  const setActive = (category: Category, active: boolean) =>
    update
      .mutateAsync({ id: category.id, input: { active } })
      .then(() =>
        toast({
          title: active ? 'Category reactivated' : 'Category deactivated',
          description: category.name,
          variant: 'success',
        }),
      )
      .catch((error: unknown) =>
        toast({ title: 'Could not save', description: messageOf(error, 'Try again.'), variant: 'destructive' }),
      );

  const actionsOf = (c: Category) => (
    <DataTableRowActions
      label={`Actions for ${c.name}`}
      actions={[
        { label: 'Edit', onSelect: () => setEditing(c) },
        c.active
          ? { label: 'Deactivate', destructive: true, separated: true, onSelect: () => void setActive(c, false) }
          : { label: 'Reactivate', separated: true, onSelect: () => void setActive(c, true) },
      ]}
    />
  );

  return (
    <div>
      <PageHeader
        title="Category Management"
        description="Expense categories with their GL account. Their limits and receipt thresholds are the policy rules that apply to them, changed in Policy Management; a rule that names no currency applies in each company's own currency, shown here in yours."
      />
      {!canManage && <ReadOnlyNote />}
      <DataTable
        label="Categories"
        columns={columns}
        query={query}
        searchPlaceholder="Search name, code, GL…"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="active"
              label="Status"
              options={ACTIVE_OPTIONS}
              allLabel="Any status"
            />
            <DataTableFilterSelect
              query={query}
              name="parentId"
              label="Parent category"
              allLabel="Any parent"
              options={(parents.data ?? []).filter((c) => !c.parentId).map((c) => ({ value: c.id, label: c.name }))}
            />
          </>
        }
        actions={
          canManage && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" /> New category
            </Button>
          )
        }
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(c) => (
          <ListCard
            eyebrow={c.code}
            title={c.name}
            badge={<ActiveBadge active={c.active} />}
            actions={canManage ? actionsOf(c) : undefined}
            subtitle={[c.parentName, c.glAccount && `GL ${c.glAccount}`, c.organizationName ?? 'Whole group']
              .filter(Boolean)
              .join(' · ')}
            meta={
              <div className="grid gap-2 sm:grid-cols-2">
                <div>
                  <span className="block text-xs font-medium text-foreground">Limit</span>
                  <CategoryLimits category={c} kinds={LIMIT_KINDS} empty="No limit" />
                </div>
                <div>
                  <span className="block text-xs font-medium text-foreground">Receipt required above</span>
                  <CategoryLimits category={c} kinds={RECEIPT_KINDS} empty="Never" />
                </div>
              </div>
            }
          />
        )}
      />
      <CreateCategoryDialog open={creating} onOpenChange={setCreating} />
      {editing && (
        <EditCategoryDialog
          key={editing.id}
          category={editing}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
    </div>
  );
}
