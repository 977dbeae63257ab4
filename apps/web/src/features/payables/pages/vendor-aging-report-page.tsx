import { ChevronDown, ChevronRight, Download } from 'lucide-react';
import { Fragment, useState } from 'react';
import {
  AGING_BASIS_LABELS,
  AGING_BASIS_VALUES,
  AGING_BUCKET_LABELS,
  AGING_BUCKET_VALUES,
  type AgingReport,
  type AgingVendorRow,
} from '@outlay/contracts/payables';
import { downloadFile } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { enumOptions, idOptions, SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDate, formatMoney, formatMonth, plural } from '@/lib/format';
import { agingExportUrl, useAging, type AgingParams } from '../api/aging';
import { AgingInvoices } from '../components/aging-invoices';

const BASIS_OPTIONS = enumOptions(AGING_BASIS_VALUES, AGING_BASIS_LABELS);
const today = () => new Date().toISOString().slice(0, 10);

function Filters({
  params,
  report,
  onChange,
}: {
  params: AgingParams;
  report: AgingReport | undefined;
  onChange: (next: AgingParams) => void;
}) {
  const orgs = report?.organizations ?? [];
  return (
    <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
      <div className="flex min-w-0 flex-col gap-1.5">
        <Label htmlFor="aging-as-of">As of</Label>
        <Input
          id="aging-as-of"
          type="date"
          value={params.asOf}
          max="9999-12-31"
          onChange={(e) => e.target.value && onChange({ ...params, asOf: e.target.value })}
          className="w-full sm:w-44"
        />
      </div>
      <SelectField
        id="aging-basis"
        label="Age by"
        value={params.basis}
        options={BASIS_OPTIONS}
        onChange={(basis) => onChange({ ...params, basis })}
        className="w-full sm:w-40"
      />
      {orgs.length > 1 && (
        <SelectField
          id="aging-org"
          label="Organization"
          all="All organizations"
          value={params.organizationId}
          options={idOptions(orgs)}
          onChange={(organizationId) => onChange({ ...params, organizationId })}
          className="w-full sm:w-56"
          wrapperClassName="col-span-2 sm:col-span-1"
        />
      )}
    </div>
  );
}

function ExportButtons({ params }: { params: AgingParams }) {
  const { toast } = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (format: 'csv' | 'xlsx' | 'pdf') => {
    setBusy(format);
    try {
      await downloadFile(agingExportUrl(format, params), `vendor-aging-${params.asOf}.${format}`);
    } catch (e) {
      toast({ variant: 'destructive', title: 'Export failed', description: messageOf(e, 'Try again.') });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Export the report">
      {(['csv', 'xlsx', 'pdf'] as const).map((f) => (
        <Button key={f} variant="outline" size="sm" disabled={busy !== null} onClick={() => void run(f)}>
          <Download aria-hidden="true" />
          {busy === f ? 'Exporting…' : f.toUpperCase()}
        </Button>
      ))}
    </div>
  );
}

function VendorTable({ report, params }: { report: AgingReport; params: AgingParams }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const cur = report.groupCurrency;
  return (
    <Card className="hidden overflow-x-auto sm:block">
      <table className="w-full text-sm">
        <caption className="sr-only">
          Open payables per vendor as of {formatDate(report.asOf)}, in {cur}
        </caption>
        <thead className="border-b bg-muted/40">
          <tr className="text-left">
            <th scope="col" className="p-3 font-medium">
              Vendor
            </th>
            {AGING_BUCKET_VALUES.map((b) => (
              <th key={b} scope="col" className="p-3 text-right font-medium">
                {AGING_BUCKET_LABELS[b]}
              </th>
            ))}
            <th scope="col" className="p-3 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {report.vendors.map((v) => {
            const expanded = open.has(v.vendorId);
            return (
              <Fragment key={v.vendorId}>
                <tr className="border-b" data-testid="aging-vendor-row">
                  <th scope="row" className="p-3 text-left font-normal">
                    <button
                      type="button"
                      className="flex items-start gap-1 rounded text-left font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      aria-expanded={expanded}
                      aria-controls={`aging-invoices-${v.vendorId}`}
                      onClick={() => toggle(v.vendorId)}
                    >
                      {expanded ? (
                        <ChevronDown className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                      ) : (
                        <ChevronRight className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                      )}
                      <span>{v.vendorName}</span>
                    </button>
                    <span className="block pl-5 text-xs text-muted-foreground">
                      {v.organizationName} · {plural(v.invoiceCount, 'open invoice')}
                    </span>
                  </th>
                  {AGING_BUCKET_VALUES.map((b) => (
                    <td
                      key={b}
                      className={`p-3 text-right tabular-nums ${v.buckets[b] === '0.00' ? 'text-muted-foreground' : ''}`}
                    >
                      {formatMoney(v.buckets[b], cur)}
                    </td>
                  ))}
                  <td className="p-3 text-right font-medium tabular-nums">{formatMoney(v.total, cur)}</td>
                </tr>
                {expanded && (
                  <tr id={`aging-invoices-${v.vendorId}`} className="border-b bg-slate-50/60">
                    <td colSpan={AGING_BUCKET_VALUES.length + 2} className="px-6 py-3">
                      <AgingInvoices
                        vendorId={v.vendorId}
                        vendorName={v.vendorName}
                        params={params}
                        groupCurrency={cur}
                        layout="table"
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="bg-muted/40 font-medium">
            <th scope="row" className="p-3 text-left">
              Total{' '}
              <span className="block text-xs font-normal text-muted-foreground">
                {plural(report.totals.invoiceCount, 'open invoice')}
              </span>
            </th>
            {AGING_BUCKET_VALUES.map((b) => (
              <td key={b} className="p-3 text-right tabular-nums">
                {formatMoney(report.totals.buckets[b], cur)}
              </td>
            ))}
            <td className="p-3 text-right tabular-nums">{formatMoney(report.totals.total, cur)}</td>
          </tr>
        </tfoot>
      </table>
    </Card>
  );
}

function BucketList({ buckets, currency }: { buckets: AgingVendorRow['buckets']; currency: string }) {
  return (
    <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
      {AGING_BUCKET_VALUES.map((b) => (
        <div key={b} className="flex min-w-0 flex-col">
          <dt className="text-xs text-muted-foreground">{AGING_BUCKET_LABELS[b]}</dt>
          <dd className="truncate tabular-nums">{formatMoney(buckets[b], currency)}</dd>
        </div>
      ))}
    </dl>
  );
}

function VendorCards({ report, params }: { report: AgingReport; params: AgingParams }) {
  const [open, setOpen] = useState<string | null>(null);
  const cur = report.groupCurrency;
  return (
    <div className="flex flex-col gap-3 sm:hidden">
      <ul className="flex flex-col gap-3" aria-label="Vendors">
        {report.vendors.map((v) => (
          <li key={v.vendorId}>
            <Card className="flex flex-col gap-3 p-4">
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
                  <h2 className="break-words font-medium">{v.vendorName}</h2>
                  <p className="text-xs text-muted-foreground">
                    {v.organizationName} · {plural(v.invoiceCount, 'open invoice')}
                  </p>
                </div>
                <span className="shrink-0 font-semibold tabular-nums">{formatMoney(v.total, cur)}</span>
              </div>
              <BucketList buckets={v.buckets} currency={cur} />
              <Button
                variant="outline"
                size="sm"
                aria-expanded={open === v.vendorId}
                onClick={() => setOpen(open === v.vendorId ? null : v.vendorId)}
              >
                {open === v.vendorId ? 'Hide invoices' : 'Show invoices'}
              </Button>
              {open === v.vendorId && (
                <AgingInvoices
                  vendorId={v.vendorId}
                  vendorName={v.vendorName}
                  params={params}
                  groupCurrency={cur}
                  layout="cards"
                />
              )}
            </Card>
          </li>
        ))}
      </ul>
      <Card className="flex flex-col gap-3 bg-muted/40 p-4" aria-label="Totals">
        <div className="flex items-start justify-between gap-2">
          <h2 className="font-semibold">Total</h2>
          <span className="font-semibold tabular-nums">{formatMoney(report.totals.total, cur)}</span>
        </div>
        <BucketList buckets={report.totals.buckets} currency={cur} />
      </Card>
    </div>
  );
}

export default function VendorAgingReportPage() {
  const [params, setParams] = useState<AgingParams>({ asOf: today(), basis: 'due' });
  const query = useAging(params);
  return (
    <div className="min-w-0">
      <PageHeader
        title="Vendor Aging Report"
        description="What is owed to each vendor, by how long it is past due, as of any day."
        actions={<ExportButtons params={params} />}
      />
      <div className="mb-4">
        <Filters params={params} report={query.data} onChange={setParams} />
      </div>
      <QueryState
        query={query}
        loadingLabel="Loading the aging report"
        errorMessage="Could not load the aging report."
        className="py-16"
      >
        {(report) => (
          <div className="flex flex-col gap-3">
            <p className="text-sm text-muted-foreground">
              As of {formatDate(report.asOf)}, aged by {AGING_BASIS_LABELS[report.basis].toLowerCase()}. Amounts in{' '}
              {report.groupCurrency} at the {formatMonth(report.ratePeriod)} average rates; open each vendor for its
              invoices in their own currency.
            </p>
            {report.vendors.length === 0 ? (
              <Card className="px-4 py-10 text-center text-sm text-muted-foreground">
                Nothing was owed to any vendor on {formatDate(report.asOf)}.
              </Card>
            ) : (
              <>
                <VendorTable report={report} params={params} />
                <VendorCards report={report} params={params} />
              </>
            )}
          </div>
        )}
      </QueryState>
    </div>
  );
}
