import { Plus } from 'lucide-react';
import { useState } from 'react';
import { createFxRateInput, updateFxRateInput, type FxRate } from '@outlay/contracts/fx-rates';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { FormDialog, FormFieldText, useZodForm } from '@/components/form';
import { useHolds } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { useCreateFxRate, FX_RATES_URL, useUpdateFxRate } from '@/features/fx-rates';
import { useOrganizationOptions } from '../api/organization-options';
import { formatPeriod, formatRate } from '../utils/format';

const columns: DataTableColumn<FxRate>[] = [
  {
    id: 'pair',
    header: 'Currency pair',
    sortKey: 'base',
    sortable: true,
    hideable: false,
    accessor: (r) => `${r.base}/${r.quote}`,
  },
  {
    id: 'period',
    header: 'Period',
    sortable: true,
    cell: (r) => <time dateTime={r.period}>{formatPeriod(r.period)}</time>,
  },
  {
    id: 'averageRate',
    header: 'Average rate',
    sortable: true,
    align: 'right',
    accessor: (r) => formatRate(r.averageRate),
  },
  {
    id: 'closingRate',
    header: 'Closing rate',
    sortable: true,
    align: 'right',
    accessor: (r) => formatRate(r.closingRate),
  },
];

function currentPeriod() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

function CreateFxRateDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const form = useZodForm(createFxRateInput, {
    base: '',
    quote: 'USD',
    period: currentPeriod(),
    averageRate: '',
    closingRate: '',
  });
  const create = useCreateFxRate();
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title="Add an FX rate"
      description="One unit of the base currency in the quote currency, for one month."
      form={form}
      submitLabel="Add"
      onSubmit={async (values) => {
        const created = await create.mutateAsync(values);
        toast({
          title: 'FX rate added',
          description: `${created.base}/${created.quote} ${formatPeriod(created.period)}`,
          variant: 'success',
        });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <FormFieldText name="base" label="Base" required maxLength={3} autoComplete="off" placeholder="EUR" />
        <FormFieldText name="quote" label="Quote" required maxLength={3} autoComplete="off" />
        <FormFieldText name="period" label="Period" required type="month" hint="Year and month" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="averageRate" label="Average rate" required inputMode="decimal" autoComplete="off" />
        <FormFieldText name="closingRate" label="Closing rate" required inputMode="decimal" autoComplete="off" />
      </div>
    </FormDialog>
  );
}

function EditFxRateDialog({ rate, onOpenChange }: { rate: FxRate; onOpenChange: (open: boolean) => void }) {
  const form = useZodForm(updateFxRateInput, { averageRate: rate.averageRate, closingRate: rate.closingRate });
  const update = useUpdateFxRate();
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Edit ${rate.base}/${rate.quote} for ${formatPeriod(rate.period)}`}
      description="Corrections apply to reports translated with this month's rates."
      form={form}
      onSubmit={async (values) => {
        await update.mutateAsync({ id: rate.id, input: values });
        toast({
          title: 'FX rate saved',
          description: `${rate.base}/${rate.quote} ${formatPeriod(rate.period)}`,
          variant: 'success',
        });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="averageRate" label="Average rate" required inputMode="decimal" autoComplete="off" />
        <FormFieldText name="closingRate" label="Closing rate" required inputMode="decimal" autoComplete="off" />
      </div>
    </FormDialog>
  );
}

export function FxRatesSection() {
  const query = useListQuery<FxRate>({
    url: FX_RATES_URL,
    filters: ['base', 'quote', 'from', 'to'],
    defaultSort: 'period',
    defaultOrder: 'desc',
    urlPrefix: 'fx.',
  });
  const organizations = useOrganizationOptions();
  const canManage = useHolds('org.manage');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<FxRate | null>(null);
  const currencies = [...new Set(['USD', ...(organizations.data ?? []).map((o) => o.currency)])]
    .sort()
    .map((c) => ({ value: c, label: c }));
  const period = (name: 'from' | 'to', label: string) => (
    <div className="flex min-w-0 items-center gap-2">
      <Label htmlFor={`fx-${name}`} className="w-10 shrink-0 whitespace-nowrap text-sm text-muted-foreground sm:w-auto">
        {label}
      </Label>
      <Input
        id={`fx-${name}`}
        type="month"
        className="h-10 min-w-0 flex-1 sm:w-44 sm:flex-none"
        value={query.state.filters[name] ?? ''}
        onChange={(event) => query.setters.setFilter(name, event.target.value || undefined)}
      />
    </div>
  );
  return (
    <section aria-labelledby="fx-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="fx-heading" className="text-lg font-semibold">
          FX rates
        </h2>
        <p className="text-sm text-muted-foreground">
          Monthly average and closing rates used to translate subsidiaries' figures.
        </p>
      </div>
      <DataTable
        label="FX rates"
        columns={columns}
        query={query}
        search={false}
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="base"
              label="Base currency"
              allLabel="Any base"
              options={currencies}
              className="sm:w-36"
            />
            <DataTableFilterSelect
              query={query}
              name="quote"
              label="Quote currency"
              allLabel="Any quote"
              options={currencies}
              className="sm:w-36"
            />
            <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
              {period('from', 'From')}
              {period('to', 'To')}
            </div>
          </>
        }
        actions={
          canManage && (
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" /> Add rate
            </Button>
          )
        }
        rowActions={
          canManage
            ? (r) => (
                <DataTableRowActions
                  label={`Actions for ${r.base}/${r.quote} ${r.period}`}
                  actions={[{ label: 'Edit', onSelect: () => setEditing(r) }]}
                />
              )
            : undefined
        }
        renderCard={(r) => (
          <ListCard
            title={`${r.base}/${r.quote}`}
            subtitle={formatPeriod(r.period)}
            meta={`Average ${formatRate(r.averageRate)} · closing ${formatRate(r.closingRate)}`}
            actions={
              canManage ? (
                <DataTableRowActions
                  label={`Actions for ${r.base}/${r.quote} ${r.period}`}
                  actions={[{ label: 'Edit', onSelect: () => setEditing(r) }]}
                />
              ) : undefined
            }
          />
        )}
      />
      {adding && <CreateFxRateDialog onOpenChange={setAdding} />}
      {editing && (
        <EditFxRateDialog key={editing.id} rate={editing} onOpenChange={(open) => !open && setEditing(null)} />
      )}
    </section>
  );
}
