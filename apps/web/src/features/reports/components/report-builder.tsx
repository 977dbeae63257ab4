import { Play } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  REPORT_DIMENSION_LABELS,
  REPORT_DIMENSION_VALUES,
  REPORT_MEASURE_LABELS,
  REPORT_MEASURE_VALUES,
  REPORT_VIEW_LABELS,
  REPORT_VIEW_VALUES,
  reportRunPeriod,
  type ReportDefinition,
  type ReportDimension,
  type ReportMeasure,
  type ReportOptions,
} from '@outlay/contracts/reports';
import { REQUEST_STATUS_LABELS, REQUEST_STATUS_VALUES, type RequestStatus } from '@outlay/contracts/requests';
import {
  FISCAL_PRESET_VALUES,
  fiscalPresetLabel,
  fiscalPresetRange,
  fiscalStartMonthName,
  type FiscalPreset,
} from '@outlay/contracts/fiscal-calendar';
import { Checkbox } from '@/components/form';
import { idOptions, SelectField, type SelectFieldOption } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatMonth } from '@/lib/format';

/** What the builder edits: a whole definition (the form's state is the request's body). */
export type Draft = ReportDefinition;

const MAX_DIMENSIONS = 3;
const MONTH_OF_OPTIONS: SelectFieldOption<Draft['filters']['monthOf']>[] = [
  { value: 'decided', label: 'Decision (spend)' },
  { value: 'submitted', label: 'Submission' },
];

/** Today in the browser's calendar, as the presets count from it (YYYY-MM-DD). */
function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function Group({ legend, hint, children }: { legend: string; hint?: string; children: ReactNode }) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">
        {legend} {hint && <span className="font-normal text-muted-foreground">{hint}</span>}
      </legend>
      {children}
    </fieldset>
  );
}

function CheckItem({
  id,
  label,
  checked,
  disabled,
  onChange,
  badge,
}: {
  id: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
  badge?: string;
}) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <Checkbox id={id} checked={checked} disabled={disabled} onCheckedChange={onChange} />
      <label htmlFor={id} className={disabled ? 'text-muted-foreground' : 'cursor-pointer'}>
        {label}
      </label>
      {badge && (
        <span className="rounded bg-primary/10 px-1.5 text-xs font-medium text-primary" aria-hidden="true">
          {badge}
        </span>
      )}
    </div>
  );
}

/** One id filter (organization, department, category, vendor): all, or one of the options. */
function IdFilter({
  id,
  label,
  allLabel,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  allLabel: string;
  value: string[] | undefined;
  options: { id: string; name: string }[];
  onChange: (ids: string[] | undefined) => void;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      all={allLabel}
      value={value?.[0]}
      options={idOptions(options)}
      onChange={(v) => onChange(v === undefined ? undefined : [v])}
    />
  );
}

/**
 * The builder panel: dimensions (in the order chosen: the first is the chart's axis unless month
 * is among them), measures, the period and filters, and the view. Runs on "Run report".
 */
export function ReportBuilder({
  draft,
  onChange,
  options,
  onRun,
  running,
  error,
}: {
  draft: Draft;
  onChange: (next: Draft) => void;
  options: ReportOptions;
  onRun: () => void;
  running: boolean;
  error?: string | null;
}) {
  const f = draft.filters;
  const setFilters = (patch: Partial<Draft['filters']>) => onChange({ ...draft, filters: { ...f, ...patch } });
  const toggleDimension = (d: ReportDimension, on: boolean) =>
    onChange({ ...draft, dimensions: on ? [...draft.dimensions, d] : draft.dimensions.filter((x) => x !== d) });
  const toggleMeasure = (m: ReportMeasure, on: boolean) =>
    onChange({
      ...draft,
      measures: on
        ? REPORT_MEASURE_VALUES.filter((x) => x === m || draft.measures.includes(x))
        : draft.measures.filter((x) => x !== m),
    });
  const statuses = f.statuses?.length ? f.statuses : (['approved', 'paid'] as RequestStatus[]);
  const toggleStatus = (s: RequestStatus, on: boolean) =>
    setFilters({
      statuses: on
        ? REQUEST_STATUS_VALUES.filter((x) => x === s || statuses.includes(x))
        : statuses.filter((x) => x !== s),
    });
  const org = f.organizationIds?.[0];
  const orgName = new Map(options.organizations.map((o) => [o.id, o.name]));
  // Across organizations the same department name recurs: the organization tells them apart.
  const departments = options.departments
    .filter((d) => !org || d.organizationId === org)
    .map((d) => ({
      id: d.id,
      name: !org && options.organizations.length > 1 ? `${d.name} · ${orgName.get(d.organizationId) ?? ''}` : d.name,
    }));
  const vendors = options.vendors.filter((v) => !org || v.organizationId === org);
  // Quarters and years follow the chosen organization's fiscal year, else the default one (the server runs the same rule).
  const fiscalStart =
    (org && options.organizations.find((o) => o.id === org)?.fiscalYearStartMonth) || options.fiscalYearStartMonth;
  const today = localToday();
  const presets = FISCAL_PRESET_VALUES.map((value) => ({ value, label: fiscalPresetLabel(value, today, fiscalStart) }));
  const preset = FISCAL_PRESET_VALUES.find((p) => {
    const r = fiscalPresetRange(p, today, fiscalStart);
    return r.from === f.from && r.to === f.to;
  });
  const problem =
    draft.dimensions.length === 0
      ? 'Choose at least one dimension.'
      : draft.measures.length === 0
        ? 'Choose at least one measure.'
        : f.from > f.to
          ? 'The period must end on or after its start.'
          : statuses.length === 0
            ? 'Choose at least one status.'
            : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Build a report</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-5"
          aria-label="Report definition"
          onSubmit={(e) => {
            e.preventDefault();
            if (!problem) onRun();
          }}
        >
          <div className="grid gap-5 md:grid-cols-3">
            <Group legend="Group by" hint={`(up to ${MAX_DIMENSIONS}, in the order chosen)`}>
              <div className="grid grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] gap-x-3 gap-y-1.5">
                {REPORT_DIMENSION_VALUES.map((d) => {
                  const at = draft.dimensions.indexOf(d);
                  return (
                    <CheckItem
                      key={d}
                      id={`dim-${d}`}
                      label={REPORT_DIMENSION_LABELS[d]}
                      checked={at >= 0}
                      disabled={at < 0 && draft.dimensions.length >= MAX_DIMENSIONS}
                      onChange={(on) => toggleDimension(d, on)}
                      badge={at >= 0 ? String(at + 1) : undefined}
                    />
                  );
                })}
              </div>
            </Group>
            <Group legend="Measures">
              <div className="flex flex-col gap-1.5">
                {REPORT_MEASURE_VALUES.map((m) => (
                  <CheckItem
                    key={m}
                    id={`measure-${m}`}
                    label={REPORT_MEASURE_LABELS[m]}
                    checked={draft.measures.includes(m)}
                    onChange={(on) => toggleMeasure(m, on)}
                  />
                ))}
              </div>
              <p className="text-xs text-muted-foreground">
                Amounts in {options.groupCurrency}, each month at its average rate.
              </p>
            </Group>
            <Group legend="View">
              <div role="group" aria-label="View" className="flex flex-wrap gap-1">
                {REPORT_VIEW_VALUES.map((v) => (
                  <Button
                    key={v}
                    type="button"
                    size="sm"
                    variant={draft.view === v ? 'default' : 'outline'}
                    aria-pressed={draft.view === v}
                    onClick={() => onChange({ ...draft, view: v })}
                  >
                    {REPORT_VIEW_LABELS[v]}
                  </Button>
                ))}
              </div>
            </Group>
          </div>

          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <div className="flex min-w-0 flex-col gap-1.5">
              <SelectField<FiscalPreset>
                id="report-preset"
                label="Fiscal period"
                all="Months chosen"
                value={preset}
                options={presets}
                onChange={(p) => p && setFilters(fiscalPresetRange(p, today, fiscalStart))}
              />
              <span className="text-xs text-muted-foreground" data-testid="report-fiscal-year">
                Fiscal year from {fiscalStartMonthName(fiscalStart)}
              </span>
            </div>
            <div className="flex min-w-0 flex-col gap-1.5">
              <Label htmlFor="report-from">From month</Label>
              <Input
                id="report-from"
                type="month"
                required
                value={f.from}
                onChange={(e) => e.target.value && setFilters({ from: e.target.value })}
              />
            </div>
            <div className="flex min-w-0 flex-col gap-1.5">
              <Label htmlFor="report-to">To month</Label>
              <Input
                id="report-to"
                type="month"
                required
                value={f.to}
                onChange={(e) => e.target.value && setFilters({ to: e.target.value })}
              />
            </div>
            <SelectField
              id="report-month-of"
              label="Month of"
              value={f.monthOf}
              options={MONTH_OF_OPTIONS}
              onChange={(monthOf) => setFilters({ monthOf })}
            />
            {options.organizations.length > 1 && (
              <IdFilter
                id="report-org"
                label="Organization"
                allLabel="All organizations"
                value={f.organizationIds}
                options={options.organizations}
                onChange={(ids) => setFilters({ organizationIds: ids, departmentIds: undefined, vendorIds: undefined })}
              />
            )}
            {departments.length > 1 && (
              <IdFilter
                id="report-dept"
                label="Department"
                allLabel="All departments"
                value={f.departmentIds}
                options={departments}
                onChange={(ids) => setFilters({ departmentIds: ids })}
              />
            )}
            <IdFilter
              id="report-cat"
              label="Category"
              allLabel="All categories"
              value={f.categoryIds}
              options={options.categories}
              onChange={(ids) => setFilters({ categoryIds: ids })}
            />
            {vendors.length > 0 && (
              <IdFilter
                id="report-vendor"
                label="Vendor"
                allLabel="All vendors"
                value={f.vendorIds}
                options={vendors}
                onChange={(ids) => setFilters({ vendorIds: ids })}
              />
            )}
          </div>

          <div className="flex items-start gap-2 text-sm">
            <Checkbox
              id="report-rolling"
              checked={f.rolling}
              onCheckedChange={(on) => setFilters({ rolling: on })}
              aria-describedby="report-rolling-hint"
            />
            <div className="flex flex-col">
              <label htmlFor="report-rolling" className="cursor-pointer">
                Rolling period
              </label>
              <span
                id="report-rolling-hint"
                className="text-xs text-muted-foreground"
                data-testid="report-rolling-hint"
              >
                {f.rolling
                  ? `Each run keeps the length of the period and ends it in the current month: today it runs ${periodText(reportRunPeriod(f, new Date()))}, not the months chosen above.`
                  : `Runs the months chosen: ${periodText(f)}. Tick to move the period with each run (what a scheduled e-mail sends).`}
              </span>
            </div>
          </div>

          <Group legend="Statuses" hint="(spend is approved and paid)">
            <div className="flex flex-wrap gap-x-4 gap-y-1.5">
              {REQUEST_STATUS_VALUES.map((s) => (
                <CheckItem
                  key={s}
                  id={`status-${s}`}
                  label={REQUEST_STATUS_LABELS[s]}
                  checked={statuses.includes(s)}
                  onChange={(on) => toggleStatus(s, on)}
                />
              ))}
            </div>
          </Group>

          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={running || Boolean(problem)}>
              <Play className="size-4" aria-hidden="true" />
              {running ? 'Running…' : 'Run report'}
            </Button>
            {(problem ?? error) && (
              <p role="alert" className="text-sm text-destructive">
                {problem ?? error}
              </p>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function periodText(p: { from: string; to: string }): string {
  return p.from === p.to ? formatMonth(p.from) : `${formatMonth(p.from)} – ${formatMonth(p.to)}`;
}
