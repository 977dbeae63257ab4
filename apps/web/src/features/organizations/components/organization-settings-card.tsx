import { useState } from 'react';
import { updateOrganizationInput, type Organization } from '@outlay/contracts/organizations';
import { Form, FormFieldMoney, FormFieldSelect, useVersionedEdit, useZodForm } from '@/components/form';
import { FormField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { useHolds } from '@/components/read-only-note';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { formatAmount } from '@/lib/format';
import { useOrganizationOptions } from '../api/organization-options';
import { useReloadOrganization, useUpdateOrganization } from '../api/update-organization';
import { MONTH_OPTIONS } from '../utils/format';

function settingsValues(organization: Organization) {
  return {
    fiscalYearStartMonth: String(organization.fiscalYearStartMonth),
    settings: { approvalThreshold: organization.settings.approvalThreshold ?? '' },
  };
}

function SettingsForm({ organization }: { organization: Organization }) {
  const form = useZodForm(updateOrganizationInput, settingsValues(organization));
  const update = useUpdateOrganization();
  const load = useReloadOrganization(organization.id);
  const versioned = useVersionedEdit({ record: organization, form, load, toValues: settingsValues });
  return (
    <Form
      form={form}
      aria-label={`Settings of ${organization.name}`}
      onReload={versioned.reload}
      onSubmit={async (values) => {
        versioned.saved(await update.mutateAsync({ id: organization.id, input: values, headers: versioned.headers() }));
        toast({ title: 'Settings saved', description: organization.name, variant: 'success' });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldMoney
          name="settings.approvalThreshold"
          label="Approval threshold"
          currency={organization.currency}
          hint={`Requests above it need a further approval. Current: ${formatAmount(organization.settings.approvalThreshold, organization.currency) ?? 'none'}.`}
        />
        <FormFieldSelect name="fiscalYearStartMonth" label="Fiscal year starts in" options={MONTH_OPTIONS} />
      </div>
      <p className="text-sm text-muted-foreground">
        Default approval workflow: {organization.settings.defaultWorkflowId ? 'set' : 'none set'}.
      </p>
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </Form>
  );
}

/** The same settings as text, for someone who may read them but not change them. */
function SettingsValues({ organization }: { organization: Organization }) {
  const month = MONTH_OPTIONS.find((m) => m.value === String(organization.fiscalYearStartMonth))?.label;
  return (
    <dl className="grid gap-4 sm:grid-cols-2" aria-label={`Settings of ${organization.name}`}>
      <div className="flex flex-col gap-1">
        <dt className="text-sm text-muted-foreground">Approval threshold</dt>
        <dd className="font-medium">
          {formatAmount(organization.settings.approvalThreshold, organization.currency) ?? 'None'}
        </dd>
      </div>
      <div className="flex flex-col gap-1">
        <dt className="text-sm text-muted-foreground">Fiscal year starts in</dt>
        <dd className="font-medium">{month}</dd>
      </div>
      <div className="flex flex-col gap-1 sm:col-span-2">
        <dt className="text-sm text-muted-foreground">Default approval workflow</dt>
        <dd className="font-medium">{organization.settings.defaultWorkflowId ? 'Set' : 'None set'}</dd>
      </div>
    </dl>
  );
}

/** Per-organization settings: pick a company, edit (org.manage) or read its approval threshold and fiscal year. */
export function OrganizationSettingsCard() {
  const organizations = useOrganizationOptions();
  const canManage = useHolds('org.manage');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = organizations.data ?? [];
  const selected = list.find((o) => o.id === selectedId) ?? list[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Per-organization settings</CardTitle>
        <CardDescription>
          Approval threshold in the company's own currency and the month its fiscal year starts.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormField label="Organization" className="sm:max-w-xs">
          {(control) => (
            <Select value={selected?.id ?? ''} onValueChange={setSelectedId} disabled={list.length === 0}>
              <SelectTrigger {...control}>
                <SelectValue placeholder={organizations.isPending ? 'Loading…' : 'Select…'} />
              </SelectTrigger>
              <SelectContent>
                {list.map((o) => (
                  <SelectItem key={o.id} value={o.id}>
                    {o.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        {selected &&
          (canManage ? (
            <SettingsForm key={`${selected.id}-${selected.updatedAt}`} organization={selected} />
          ) : (
            <SettingsValues organization={selected} />
          ))}
      </CardContent>
    </Card>
  );
}
