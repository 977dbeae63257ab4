import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  bankAccountInput,
  createVendorInput,
  type UpdateVendorInput,
  type Vendor,
  type VendorOrganization,
} from '@outlay/contracts/vendors';
import {
  FormDialog,
  FormFieldCheckbox,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  useVersionedEdit,
  useZodForm,
} from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { useCreateVendor } from '../api/create-vendor';
import { useUpdateVendor } from '../api/update-vendor';
import { VENDORS_URL, vendorQueryOptions } from '../api/vendor';
import { PendingBankChange } from './pending-bank-change';

/** Currencies offered in the form: the group's and the usual trading ones. */
export const VENDOR_CURRENCIES = ['USD', 'EUR', 'GBP', 'AED', 'CHF', 'CAD', 'AUD', 'JPY', 'CNY', 'INR', 'SAR'] as const;
const CURRENCY_OPTIONS = VENDOR_CURRENCIES.map((c) => ({ value: c, label: c }));

/** Editing: an empty bank field keeps the stored account; the box removes it. */
const editSchema = createVendorInput.omit({ organizationId: true }).extend({
  bankAccount: z.union([z.literal(''), bankAccountInput]).optional(),
  removeBankAccount: z.boolean().optional(),
});

interface Common {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const BANK_HINT = 'Stored encrypted. Only the last four characters are ever shown again.';

function SharedFields() {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="name" label="Name" required autoComplete="off" />
        <FormFieldText name="taxId" label="Tax ID" required autoComplete="off" hint="Unique across the group" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldSelect name="currency" label="Currency" required options={CURRENCY_OPTIONS} />
        <FormFieldText
          name="paymentTermsDays"
          label="Payment terms (days)"
          required
          type="number"
          min={0}
          max={365}
          inputMode="numeric"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="contactName" label="Contact name" autoComplete="off" />
        <FormFieldText name="email" label="E-mail" type="email" autoComplete="off" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="phone" label="Phone" type="tel" autoComplete="off" />
      </div>
      <FormFieldTextarea name="address" label="Address" rows={2} />
    </>
  );
}

export function CreateVendorDialog({
  open,
  onOpenChange,
  organizations,
}: Common & { organizations: readonly VendorOrganization[] }) {
  const { toast } = useToast();
  const create = useCreateVendor();
  const first = organizations[0];
  const defaults = useMemo(
    () => ({
      organizationId: organizations.length === 1 ? first?.id : undefined,
      name: '',
      taxId: '',
      contactName: '',
      email: '',
      phone: '',
      address: '',
      paymentTermsDays: '30',
      currency: organizations.length === 1 ? first?.currency : 'USD',
      bankAccount: '',
    }),
    [organizations, first],
  );
  const form = useZodForm(createVendorInput, defaults);
  const organizationId = form.watch('organizationId');
  const lastOrg = useRef<string | undefined>(undefined);
  // A new vendor usually bills in its organization's currency: follow the organization.
  useEffect(() => {
    if (!organizationId || organizationId === lastOrg.current) return;
    lastOrg.current = organizationId;
    const org = organizations.find((o) => o.id === organizationId);
    if (org) form.setValue('currency', org.currency);
  }, [organizationId, organizations, form]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New vendor"
      description="New vendors start as pending verification until someone checks their details."
      form={form}
      size="lg"
      submitLabel="Create vendor"
      pendingLabel="Creating…"
      onSubmit={async (values) => {
        const vendor = await create.mutateAsync(values);
        toast({ title: 'Vendor created', description: `${vendor.name} is pending verification.` });
      }}
    >
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        required
        placeholder="Choose an organization"
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
      />
      <SharedFields />
      <FormFieldText
        name="bankAccount"
        label="Bank account or IBAN"
        autoComplete="off"
        spellCheck={false}
        hint={BANK_HINT}
      />
    </FormDialog>
  );
}

function editValues(vendor: Vendor) {
  return {
    name: vendor.name,
    taxId: vendor.taxId,
    contactName: vendor.contactName ?? '',
    email: vendor.email ?? '',
    phone: vendor.phone ?? '',
    address: vendor.address ?? '',
    paymentTermsDays: String(vendor.paymentTermsDays),
    currency: vendor.currency,
    bankAccount: '',
    removeBankAccount: false,
  };
}

export function EditVendorDialog({ open, onOpenChange, vendor }: Common & { vendor: Vendor }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const update = useUpdateVendor();
  const form = useZodForm(editSchema, editValues(vendor));
  const load = useCallback(async () => {
    const fresh = await queryClient.fetchQuery({ ...vendorQueryOptions(vendor.id), staleTime: 0 });
    // The list behind the dialog shows the latest copy too.
    void queryClient.invalidateQueries({ queryKey: [VENDORS_URL] });
    return fresh;
  }, [queryClient, vendor.id]);
  const versioned = useVersionedEdit({ record: vendor, form, load, toValues: editValues });
  const removing = form.watch('removeBankAccount');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Edit ${vendor.name}`}
      description={`${vendor.organizationName} · changes are recorded in the audit history.`}
      form={form}
      size="lg"
      keepValuesOnClose
      onReload={versioned.reload}
      onSubmit={async ({ bankAccount, removeBankAccount, ...rest }) => {
        const input: UpdateVendorInput = { ...rest };
        if (removeBankAccount) input.bankAccount = null;
        else if (bankAccount) input.bankAccount = bankAccount;
        const saved = await update.mutateAsync({ id: vendor.id, input, headers: versioned.headers() });
        versioned.saved(saved);
        toast({
          title: 'Vendor saved',
          description:
            saved.pendingBankChange && saved.pendingBankChange.requestedAt !== vendor.pendingBankChange?.requestedAt
              ? `${saved.name} was updated. The new bank account waits for confirmation by someone else who manages vendors.`
              : `${saved.name} was updated.`,
        });
      }}
    >
      <PendingBankChange vendor={vendor} onDone={() => onOpenChange(false)} />
      <SharedFields />
      <FormFieldText
        name="bankAccount"
        label="New bank account or IBAN"
        autoComplete="off"
        spellCheck={false}
        disabled={removing}
        placeholder={vendor.bankAccountMasked ? `Current: ${vendor.bankAccountMasked}` : 'No bank account on file'}
        hint={
          vendor.bankAccountMasked
            ? `Leave empty to keep the current account. A new one takes effect once someone else who manages vendors confirms it. ${BANK_HINT}`
            : `Leave empty to keep the current account. ${BANK_HINT}`
        }
      />
      {vendor.bankAccountMasked && (
        <FormFieldCheckbox name="removeBankAccount" label={`Remove the bank account ${vendor.bankAccountMasked}`} />
      )}
    </FormDialog>
  );
}
