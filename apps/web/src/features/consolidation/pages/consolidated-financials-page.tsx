import { useState } from 'react';
import { Download, FileSpreadsheet, FileText } from 'lucide-react';
import { Link } from 'wouter';
import { CONSOLIDATION_GRANULARITY_VALUES, type ConsolidationGranularity } from '@outlay/contracts/consolidation';
import { fiscalStartMonthName, possessive } from '@outlay/contracts/fiscal-calendar';
import { findRoute, mayOpen } from '@/lib/route-catalogue';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { enumOptions, idOptions, SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { messageOf } from '@/lib/api-error';
import { formatMoney } from '@/lib/format';
import { downloadJournal } from '../api/export-accounting-journal';
import { useConsolidation, type ConsolidationParams } from '../api/get-consolidation';
import { downloadConsolidation } from '../api/export-consolidation';
import { ConsolidationCards } from '../components/consolidation-cards';
import { ConsolidationTable, rangeLabel } from '../components/consolidation-table';
import { IntercompanySection } from '../components/intercompany-section';
import { RequestsDialog, type DrillTarget } from '../components/requests-dialog';

const GRANULARITY_LABELS: Record<ConsolidationGranularity, string> = {
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
};
const GRANULARITY_OPTIONS = enumOptions(CONSOLIDATION_GRANULARITY_VALUES, GRANULARITY_LABELS);

/** From the start of the quarter twelve months back to this month: whole quarters, then this one so far. */
const RATES_PATH = '/advanced-organization-management';

function defaultRange(now = new Date()): { from: string; to: string } {
  const back = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const start = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() - (back.getUTCMonth() % 3), 1));
  return { from: start.toISOString().slice(0, 7), to: now.toISOString().slice(0, 7) };
}

/** The journal covers the same months, first to last day. */
function journalRange(p: ConsolidationParams): { from: string; to: string; organizationId?: string } {
  const [y, m] = p.to.split('-').map((v) => parseInt(v, 10)) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { from: `${p.from}-01`, to: last, organizationId: p.organizationId };
}

async function run(task: () => Promise<string>, failure: string) {
  try {
    const name = await task();
    toast({ variant: 'success', title: 'Download started', description: name });
  } catch (error) {
    toast({ variant: 'destructive', title: failure, description: messageOf(error, 'Please try again.') });
  }
}

function Figure({
  label,
  value,
  currency,
  strong,
}: {
  label: string;
  value: string;
  currency: string;
  strong?: boolean;
}) {
  return (
    <Card>
      <CardContent className="flex min-w-0 flex-col gap-1 p-4">
        <span className="text-xs text-muted-foreground">{label}</span>
        <span className={`break-words tabular-nums ${strong ? 'text-xl font-semibold' : 'text-lg font-medium'}`}>
          {formatMoney(value, currency)}
        </span>
      </CardContent>
    </Card>
  );
}

/** /consolidated-financials: the group's spend and payroll per company and period in the group currency, eliminations apart. */
export default function ConsolidatedFinancialsPage() {
  const { user } = useAuth();
  const ratesRoute = findRoute(RATES_PATH);
  const mayEditRates = Boolean(user && ratesRoute && mayOpen(ratesRoute, user.permissions));
  const [range, setRange] = useState(defaultRange);
  const [granularity, setGranularity] = useState<ConsolidationGranularity>('quarter');
  const [organizationId, setOrganizationId] = useState<string | undefined>();
  const [drill, setDrill] = useState<DrillTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const params: ConsolidationParams = { ...range, granularity, organizationId };
  const query = useConsolidation(params);
  const orgs = query.data?.organizations ?? [];
  const download = async (task: () => Promise<string>, failure: string) => {
    setBusy(true);
    await run(task, failure);
    setBusy(false);
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title="Consolidated Financials"
        description={
          <>
            Spend (approved and paid requests) and payroll cost of each group company, every month translated to the
            group currency at that month&apos;s average rate. Rates are kept on the{' '}
            {/* Only those who may open the rates screen get a link to it (a refused link is a dead end). */}
            {mayEditRates ? (
              <Link href={RATES_PATH} className="text-primary underline underline-offset-4">
                FX rates tab of Advanced Organization Management
              </Link>
            ) : (
              'FX rates tab of Advanced Organization Management'
            )}
            .
          </>
        }
      />
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
        <div className="flex min-w-0 flex-col gap-1.5">
          <Label htmlFor="cf-from">From month</Label>
          <Input
            id="cf-from"
            type="month"
            value={range.from}
            max={range.to}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, from: e.target.value }))}
            className="w-full sm:w-44"
          />
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <Label htmlFor="cf-to">To month</Label>
          <Input
            id="cf-to"
            type="month"
            value={range.to}
            min={range.from}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, to: e.target.value }))}
            className="w-full sm:w-44"
          />
        </div>
        <SelectField
          id="cf-granularity"
          label="Columns"
          value={granularity}
          options={GRANULARITY_OPTIONS}
          onChange={setGranularity}
          className="w-full sm:w-36"
        />
        {orgs.length > 1 && (
          <SelectField
            id="cf-org"
            label="Company"
            all="All companies"
            value={organizationId}
            options={idOptions(orgs)}
            onChange={setOrganizationId}
            className="w-full sm:w-56"
          />
        )}
        <div className="col-span-2 flex flex-wrap gap-2 sm:ml-auto">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy || !query.data}
            onClick={() => void download(() => downloadConsolidation(params, 'xlsx'), 'Could not export the table')}
          >
            <FileSpreadsheet className="size-4" aria-hidden /> Export XLSX
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy || !query.data}
            onClick={() => void download(() => downloadConsolidation(params, 'pdf'), 'Could not export the table')}
          >
            <FileText className="size-4" aria-hidden /> Export PDF
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button type="button" size="sm" disabled={busy}>
                <Download className="size-4" aria-hidden /> Download journal
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuLabel>Accounting journal, same months and company</DropdownMenuLabel>
              <DropdownMenuItem
                onSelect={() =>
                  void download(() => downloadJournal(journalRange(params), 'ledger'), 'Could not download the journal')
                }
              >
                Ledger text (hledger, ledger)
              </DropdownMenuItem>
              <DropdownMenuItem
                onSelect={() =>
                  void download(() => downloadJournal(journalRange(params), 'csv'), 'Could not download the journal')
                }
              >
                CSV, one row per posting
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>

      <QueryState
        query={query}
        loadingLabel="Loading the consolidated figures"
        errorMessage="Could not load the consolidated figures."
      >
        {(data) => {
          const gc = data.groupCurrency;
          const empty =
            data.subsidiaries.length === 0 ||
            (data.totals.overall.beforeElimination === '0.00' && data.intercompany.length === 0);
          return (
            <div className="flex min-w-0 flex-col gap-4">
              {data.fiscalYearStartMonth !== 1 && data.granularity !== 'month' && (
                <p className="text-sm text-muted-foreground">
                  {data.granularity === 'quarter' ? 'Quarters follow' : 'Years follow'}{' '}
                  {organizationId
                    ? possessive(orgs.find((o) => o.id === organizationId)?.name ?? 'the company')
                    : 'the group’s'}{' '}
                  fiscal year, which starts in {fiscalStartMonthName(data.fiscalYearStartMonth)}.
                </p>
              )}
              <section
                aria-label={`Group totals, ${rangeLabel(data)}`}
                className="grid grid-cols-1 gap-3 sm:grid-cols-3"
              >
                <Figure label="Before elimination" value={data.totals.overall.beforeElimination} currency={gc} />
                <Figure
                  label="Intercompany eliminations"
                  value={data.totals.overall.eliminations === '0.00' ? '0.00' : `-${data.totals.overall.eliminations}`}
                  currency={gc}
                />
                <Figure
                  label={`Consolidated total (${gc})`}
                  value={data.totals.overall.consolidated}
                  currency={gc}
                  strong
                />
              </section>
              {empty ? (
                <Card>
                  <CardContent className="p-8 text-center">
                    <p className="font-medium">No spend or payroll in {rangeLabel(data)}</p>
                    <p className="text-sm text-muted-foreground">Choose other months or another company.</p>
                  </CardContent>
                </Card>
              ) : (
                <>
                  <div className="hidden sm:block">
                    <ConsolidationTable data={data} onDrill={setDrill} />
                  </div>
                  <div className="sm:hidden">
                    <ConsolidationCards data={data} onDrill={setDrill} />
                  </div>
                  <IntercompanySection data={data} />
                </>
              )}
            </div>
          );
        }}
      </QueryState>
      {drill && <RequestsDialog target={drill} onClose={() => setDrill(null)} />}
    </div>
  );
}
