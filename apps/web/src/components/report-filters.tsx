import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { idOptions, SelectField } from '@/components/select-field';

export interface ReportFilterValues {
  from: string;
  to: string;
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
}

export interface ReportFilterOptions {
  organizations: { id: string; name: string }[];
  departments: { id: string; organizationId: string; name: string }[];
  categories: { id: string; organizationId: string | null; name: string }[];
}

/** YYYY-MM of today and of twelve months back to it: a report's default period. */
export function defaultPeriod(now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 7);
  const back = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  return { from: back.toISOString().slice(0, 7), to };
}

/**
 * The period (months) and organization, department and category filters of the finance
 * reports. Options are what the caller may see; one organization leaves its picker out.
 */
export function ReportFilters({
  idPrefix,
  value,
  options,
  onChange,
}: {
  idPrefix: string;
  value: ReportFilterValues;
  options?: ReportFilterOptions;
  onChange: (next: ReportFilterValues) => void;
}) {
  const orgs = options?.organizations ?? [];
  const depts = (options?.departments ?? []).filter(
    (d) => !value.organizationId || d.organizationId === value.organizationId,
  );
  const cats = (options?.categories ?? []).filter(
    (c) => !value.organizationId || !c.organizationId || c.organizationId === value.organizationId,
  );
  const set = (patch: Partial<ReportFilterValues>) => onChange({ ...value, ...patch });
  return (
    <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
      <div className="flex min-w-0 flex-col gap-1.5">
        <Label htmlFor={`${idPrefix}-from`}>From month</Label>
        <Input
          id={`${idPrefix}-from`}
          type="month"
          value={value.from}
          max={value.to}
          onChange={(e) => e.target.value && set({ from: e.target.value })}
          className="w-full sm:w-44"
        />
      </div>
      <div className="flex min-w-0 flex-col gap-1.5">
        <Label htmlFor={`${idPrefix}-to`}>To month</Label>
        <Input
          id={`${idPrefix}-to`}
          type="month"
          value={value.to}
          min={value.from}
          onChange={(e) => e.target.value && set({ to: e.target.value })}
          className="w-full sm:w-44"
        />
      </div>
      {orgs.length > 1 && (
        <SelectField
          id={`${idPrefix}-org`}
          label="Organization"
          all="All organizations"
          value={value.organizationId}
          options={idOptions(orgs)}
          onChange={(organizationId) => set({ organizationId, departmentId: undefined })}
          className="w-full sm:w-48"
        />
      )}
      {depts.length > 0 && (
        <SelectField
          id={`${idPrefix}-dept`}
          label="Department"
          all="All departments"
          value={value.departmentId}
          options={idOptions(depts)}
          onChange={(departmentId) => set({ departmentId })}
          className="w-full sm:w-48"
        />
      )}
      {cats.length > 0 && (
        <SelectField
          id={`${idPrefix}-cat`}
          label="Category"
          all="All categories"
          value={value.categoryId}
          options={idOptions(cats)}
          onChange={(categoryId) => set({ categoryId })}
          className="w-full sm:w-48"
        />
      )}
    </div>
  );
}
