import { X } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import {
  createSavedReportInput,
  REPORT_FORMAT_LABELS,
  REPORT_FORMAT_VALUES,
  REPORT_SCHEDULE_LABELS,
  REPORT_SCHEDULE_VALUES,
  type ReportDefinition,
  type SavedReport,
} from '@outlay/contracts/reports';
import { ROLES } from '@outlay/contracts/roles';
import { PersonCombobox } from '@/components/combobox';
import {
  CheckboxGroupField,
  FormDialog,
  FormField,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  useZodForm,
} from '@/components/form';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { roleLabel } from '@/lib/format';
import { useCreateReport } from '../api/create-report';
import { useReportRecipients } from '../api/report-recipients';
import { useUpdateReport } from '../api/update-report';

const formSchema = createSavedReportInput.omit({ definition: true });
const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: roleLabel(r) }));
const SCHEDULE_OPTIONS = REPORT_SCHEDULE_VALUES.map((s) => ({ value: s, label: REPORT_SCHEDULE_LABELS[s] }));
const FORMAT_OPTIONS = REPORT_FORMAT_VALUES.map((f) => ({ value: f, label: REPORT_FORMAT_LABELS[f] }));

/** People to share with: a search over those who can read reports, and the chosen ones as removable chips. */
function SharePeople({
  value,
  names,
  onChange,
  id,
}: {
  value: string[];
  names: Map<string, string>;
  onChange: (ids: string[], name?: [string, string]) => void;
  id: string;
}) {
  const [q, setQ] = useState('');
  const found = useReportRecipients(q);
  const onQueryChange = useCallback((next: string) => setQ(next), []);
  const options = (found.data ?? [])
    .filter((p) => !value.includes(p.id))
    .map((p) => ({
      id: p.id,
      name: p.name,
      detail: [roleLabel(p.role), p.organizationName].filter(Boolean).join(' · '),
    }));
  return (
    <div className="flex flex-col gap-2">
      <PersonCombobox
        id={id}
        value={null}
        options={options}
        onQueryChange={onQueryChange}
        loading={found.isFetching}
        error={found.isError ? messageOf(found.error, 'Could not search people.') : null}
        onChange={(pid, option) => {
          if (pid && option) onChange([...value, pid], [pid, option.name]);
        }}
      />
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Shared with">
          {value.map((pid) => (
            <li
              key={pid}
              className="flex items-center gap-1 rounded-full border bg-muted/40 py-0.5 pl-2.5 pr-1 text-sm"
            >
              <span className="max-w-48 truncate">{names.get(pid) ?? 'Someone'}</span>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                className="size-6"
                aria-label={`Stop sharing with ${names.get(pid) ?? 'this person'}`}
                onClick={() => onChange(value.filter((x) => x !== pid))}
              >
                <X className="size-3.5" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Save the report on screen (new), or change a saved one (its owner): name, people and roles
 * it is shared with, and an e-mail schedule with the attachment's format.
 */
export function SaveReportDialog({
  open,
  onOpenChange,
  definition,
  editing,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  definition: ReportDefinition;
  editing: SavedReport | null;
  onSaved: (report: SavedReport) => void;
}) {
  const { toast } = useToast();
  const create = useCreateReport();
  const update = useUpdateReport();
  const [names, setNames] = useState(() => new Map((editing?.sharedWithUsers ?? []).map((u) => [u.id, u.name])));
  const form = useZodForm(formSchema, {
    name: editing?.name ?? '',
    description: editing?.description ?? '',
    sharedWithUserIds: editing?.sharedWithUsers.map((u) => u.id) ?? [],
    sharedWithRoles: editing?.sharedWithRoles ?? [],
    schedule: editing?.schedule ?? 'none',
    scheduleFormat: editing?.scheduleFormat ?? 'xlsx',
  });
  const schedule = useWatch({ control: form.control, name: 'schedule' });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? `Save “${editing.name}”` : 'Save report'}
      description="It keeps the dimensions, measures, filters and view on screen. People you share it with can open and export it with their own access; only you can change it."
      form={form}
      size="lg"
      onSubmit={async (values) => {
        const saved = editing
          ? await update.mutateAsync({ id: editing.id, version: editing.version, input: { ...values, definition } })
          : await create.mutateAsync({ ...values, definition });
        toast({
          title: 'Report saved',
          description:
            saved.schedule === 'none'
              ? saved.name
              : `${saved.name} · e-mailed ${REPORT_SCHEDULE_LABELS[saved.schedule]} · ${REPORT_FORMAT_LABELS[saved.scheduleFormat]}`,
        });
        onSaved(saved);
      }}
    >
      <FormFieldText name="name" label="Name" required maxLength={120} />
      <FormFieldTextarea name="description" label="Description" rows={2} />
      <Controller
        control={form.control}
        name="sharedWithUserIds"
        render={({ field, fieldState }) => (
          <FormField label="Share with people" hint="People who can read reports" error={fieldState.error?.message}>
            <SharePeople
              id="share-people"
              value={(field.value as string[] | undefined) ?? []}
              names={names}
              onChange={(ids, name) => {
                if (name) setNames((m) => new Map(m).set(name[0], name[1]));
                field.onChange(ids);
              }}
            />
          </FormField>
        )}
      />
      <CheckboxGroupField name="sharedWithRoles" legend="Share with roles" options={ROLE_OPTIONS} emptyText="None" />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldSelect
          name="schedule"
          label="E-mail schedule"
          options={SCHEDULE_OPTIONS}
          hint="06:00 UTC, to you and the people it is shared with, each with the figures they may see"
        />
        <FormFieldSelect
          name="scheduleFormat"
          label="Attachment format"
          options={FORMAT_OPTIONS}
          disabled={schedule === 'none'}
        />
      </div>
    </FormDialog>
  );
}
