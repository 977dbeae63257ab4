import { Download, Save } from 'lucide-react';
import { useState } from 'react';
import {
  REPORT_DIMENSION_LABELS,
  REPORT_FORMAT_LABELS,
  REPORT_FORMAT_VALUES,
  type ReportDefinition,
  type ReportFormat,
  type SavedReport,
} from '@outlay/contracts/reports';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatList } from '@/lib/format';
import { useDeleteReport } from '../api/delete-report';
import { exportReport } from '../api/export-report';
import { useReportOptions } from '../api/report-options';
import { useRunReport } from '../api/run-report';
import { useSavedReports } from '../api/saved-reports';
import { ReportBuilder } from '../components/report-builder';
import { ReportResultView } from '../components/report-result';
import { SaveReportDialog } from '../components/save-report-dialog';
import { SavedReportsList } from '../components/saved-reports-list';

function month(d: Date): string {
  return d.toISOString().slice(0, 7);
}

/** The first run: spend by category over the last twelve months, as a bar chart. */
function defaultDefinition(): ReportDefinition {
  const now = new Date();
  return {
    dimensions: ['category'],
    measures: ['sum', 'count'],
    filters: {
      from: month(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1))),
      to: month(now),
      monthOf: 'decided',
      rolling: false,
    },
    view: 'bar',
  };
}

function same(a: ReportDefinition, b: ReportDefinition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** /advanced-reporting: build a report on spend, see it as a table or chart, save, share, schedule and export it. */
export default function AdvancedReportingPage() {
  const { toast } = useToast();
  const options = useReportOptions();
  const saved = useSavedReports();
  const [draft, setDraft] = useState<ReportDefinition>(defaultDefinition);
  const [ran, setRan] = useState<ReportDefinition>(draft);
  const [open, setOpen] = useState<SavedReport | null>(null);
  const [saving, setSaving] = useState<'new' | 'edit' | null>(null);
  const [deleting, setDeleting] = useState<SavedReport | null>(null);
  const [exporting, setExporting] = useState<ReportFormat | null>(null);
  const result = useRunReport(ran);
  const remove = useDeleteReport();

  const openReport = (r: SavedReport) => {
    setOpen(r);
    setDraft(r.definition);
    setRan(r.definition);
  };

  // A link from a scheduled e-mail (?report=<id>) opens that report once the list is there
  // (state adjusted while rendering, once: `linked` is cleared at the same time).
  const [linked, setLinked] = useState(() => new URLSearchParams(window.location.search).get('report'));
  if (linked && saved.data) {
    const r = saved.data.items.find((i) => i.id === linked);
    setLinked(null);
    if (r) openReport(r);
  }

  const download = async (format: ReportFormat) => {
    setExporting(format);
    try {
      // A saved report as stored is exported by its id; anything else as it is on screen.
      const name = await exportReport({
        format,
        definition: ran,
        savedId: open && same(open.definition, ran) ? open.id : undefined,
      });
      toast({ title: 'Export ready', description: name });
    } catch (error) {
      toast({
        title: 'Could not export the report',
        description: messageOf(error, 'Try again.'),
        variant: 'destructive',
      });
    } finally {
      setExporting(null);
    }
  };

  const title = `By ${formatList(ran.dimensions.map((d) => REPORT_DIMENSION_LABELS[d].toLowerCase()))}`;
  const runError = result.isError ? messageOf(result.error, 'Could not run the report.') : null;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title="Advanced Reporting"
        description="Group spend by organization, department, category, vendor, requester, month or status; total, count and average in the group currency, within what you may see."
        actions={
          <>
            {open?.isOwner && (
              <Button type="button" variant="outline" onClick={() => setSaving('edit')}>
                <Save className="size-4" aria-hidden="true" />
                Save changes
              </Button>
            )}
            <Button type="button" onClick={() => setSaving('new')}>
              <Save className="size-4" aria-hidden="true" />
              {open ? 'Save as new' : 'Save'}
            </Button>
          </>
        }
      />

      <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <QueryState
            query={options}
            loadingLabel="Loading report choices"
            errorMessage="Could not load the report choices."
            className="p-10"
          >
            {(choices) => (
              <ReportBuilder
                draft={draft}
                onChange={setDraft}
                options={choices}
                running={result.isFetching}
                error={runError}
                onRun={() => {
                  setRan(draft);
                  if (same(draft, ran)) void result.refetch();
                }}
              />
            )}
          </QueryState>

          <section aria-labelledby="report-result-heading" className="flex min-w-0 flex-col gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="report-result-heading" className="text-lg font-semibold">
                Result{open ? `: ${open.name}` : ''}
              </h2>
              <div role="group" aria-label="Export" className="flex flex-wrap gap-2">
                {REPORT_FORMAT_VALUES.map((f) => (
                  <Button
                    key={f}
                    type="button"
                    size="sm"
                    variant="outline"
                    disabled={exporting !== null || !result.data}
                    onClick={() => void download(f)}
                  >
                    <Download className="size-4" aria-hidden="true" />
                    {exporting === f ? 'Exporting…' : f.toUpperCase()}
                    <span className="sr-only"> ({REPORT_FORMAT_LABELS[f]})</span>
                  </Button>
                ))}
              </div>
            </div>
            <QueryState
              query={result}
              loadingLabel="Running the report"
              errorMessage="Could not run the report."
              className="p-10"
            >
              {(data) => <ReportResultView def={ran} result={data} title={title} />}
            </QueryState>
          </section>
        </div>

        {/* On a phone the saved reports come first: after a long result they would be out of reach. */}
        <div className="order-first min-w-0 lg:order-none lg:self-start">
          <SavedReportsList openId={open?.id ?? null} onOpen={openReport} onDelete={setDeleting} />
        </div>
      </div>

      {saving && (
        <SaveReportDialog
          key={`${saving}-${open?.id ?? 'new'}`}
          open
          onOpenChange={(o) => !o && setSaving(null)}
          definition={draft}
          editing={saving === 'edit' ? open : null}
          onSaved={(r) => {
            setOpen(r);
            setRan(r.definition);
            setSaving(null);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete “${deleting?.name ?? ''}”?`}
        description="The report, its sharing and its schedule are removed. Files already e-mailed stay with their recipients."
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync({ id: deleting.id, version: deleting.version });
          if (open?.id === deleting.id) setOpen(null);
          toast({ title: 'Report deleted', description: deleting.name });
          setDeleting(null);
        }}
      />
    </div>
  );
}
