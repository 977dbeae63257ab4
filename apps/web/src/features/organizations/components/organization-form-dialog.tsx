import { createOrganizationInput, updateOrganizationInput, type Organization } from '@outlay/contracts/organizations';
import {
  FormDialog,
  FormFieldCheckbox,
  FormFieldMoney,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  useVersionedEdit,
  useZodForm,
} from '@/components/form';
import { toast } from '@/components/ui/use-toast';
import { useCreateOrganization } from '../api/create-organization';
import { useReloadOrganization, useUpdateOrganization } from '../api/update-organization';
import { MONTH_OPTIONS } from '../utils/format';
import { FormFieldCountry, FormFieldTimeZone } from './place-fields';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function Fields({ currency, zoneHint }: { currency?: string; zoneHint: string }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="name" label="Name" required autoComplete="off" />
        <FormFieldText name="code" label="Code" required autoComplete="off" hint="Unique, e.g. MR" />
        <FormFieldText
          name="currency"
          label="Base currency"
          required
          autoComplete="off"
          maxLength={3}
          hint="Three letters, e.g. EUR"
        />
        <FormFieldSelect name="fiscalYearStartMonth" label="Fiscal year starts in" options={MONTH_OPTIONS} />
        <FormFieldText name="taxId" label="Tax id" autoComplete="off" />
        <FormFieldMoney
          name="settings.approvalThreshold"
          label="Approval threshold"
          currency={currency}
          hint="Requests above it need a further approval"
        />
        <FormFieldCountry name="country" />
        <FormFieldTimeZone name="timeZone" hint={zoneHint} />
      </div>
      <FormFieldTextarea name="address" label="Address" rows={2} />
      <FormFieldCheckbox name="active" label="Active" description="Inactive companies cannot receive new requests." />
    </>
  );
}

/** New subsidiary: created under the group; move it in the tree afterwards. */
export function CreateOrganizationDialog({ open, onOpenChange }: Props) {
  const form = useZodForm(createOrganizationInput, {
    name: '',
    code: '',
    currency: 'USD',
    fiscalYearStartMonth: '1',
    taxId: '',
    address: '',
    country: null,
    timeZone: undefined,
    active: true,
    settings: { approvalThreshold: '' },
  });
  const create = useCreateOrganization();
  const currency = String(form.watch('currency') ?? '').toUpperCase();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New subsidiary"
      description="The company is created under the group; you can move it in the hierarchy later."
      form={form}
      size="lg"
      submitLabel="Create"
      onSubmit={async (values) => {
        const created = await create.mutateAsync(values);
        toast({ title: 'Subsidiary created', description: `${created.name} (${created.code})`, variant: 'success' });
      }}
    >
      <Fields
        currency={/^[A-Z]{3}$/.test(currency) ? currency : undefined}
        zoneHint="The group's when left empty. Its people's scheduled e-mails run in it unless they chose their own."
      />
    </FormDialog>
  );
}

function editValues(organization: Organization) {
  return {
    name: organization.name,
    code: organization.code,
    currency: organization.currency,
    fiscalYearStartMonth: String(organization.fiscalYearStartMonth),
    taxId: organization.taxId ?? '',
    address: organization.address ?? '',
    country: organization.country,
    timeZone: organization.timeZone ?? 'UTC',
    active: organization.active,
    settings: { approvalThreshold: organization.settings.approvalThreshold ?? '' },
  };
}

export function EditOrganizationDialog({ organization, open, onOpenChange }: Props & { organization: Organization }) {
  const form = useZodForm(updateOrganizationInput, editValues(organization));
  const update = useUpdateOrganization();
  const load = useReloadOrganization(organization.id);
  const versioned = useVersionedEdit({ record: organization, form, load, toValues: editValues });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Edit ${organization.name}`}
      form={form}
      size="lg"
      keepValuesOnClose
      onReload={versioned.reload}
      onSubmit={async (values) => {
        versioned.saved(await update.mutateAsync({ id: organization.id, input: values, headers: versioned.headers() }));
        toast({ title: 'Organization saved', description: organization.name, variant: 'success' });
      }}
    >
      <Fields
        currency={organization.currency}
        zoneHint="Its people's scheduled e-mails run in it unless they chose their own."
      />
    </FormDialog>
  );
}
