import { createDepartmentInput, updateDepartmentInput, type Department } from '@outlay/contracts/organizations';
import { FormDialog, FormFieldCheckbox, FormFieldSelect, FormFieldText, useZodForm } from '@/components/form';
import { toast } from '@/components/ui/use-toast';
import { useCreateDepartment } from '../api/create-department';
import { useDepartmentOptions } from '../api/department-options';
import { useOrganizationMembers } from '../api/organization-members';
import { useOrganizationOptions } from '../api/organization-options';
import { useUpdateDepartment } from '../api/update-department';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Head and parent pickers: people and departments of the chosen organization only. */
function PeopleAndParent({ organizationId, selfId }: { organizationId: string | null | undefined; selfId?: string }) {
  const members = useOrganizationMembers(organizationId);
  const departments = useDepartmentOptions(organizationId);
  const disabled = !organizationId;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormFieldSelect
        name="headUserId"
        label="Department head"
        emptyOption="No head"
        disabled={disabled || members.isPending}
        placeholder={disabled ? 'Choose an organization first' : 'Select…'}
        options={(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
      />
      <FormFieldSelect
        name="parentId"
        label="Parent department"
        emptyOption="No parent (top level)"
        disabled={disabled || departments.isPending}
        placeholder={disabled ? 'Choose an organization first' : 'Select…'}
        options={(departments.data ?? [])
          .filter((d) => d.id !== selfId)
          .map((d) => ({ value: d.id, label: `${d.name} (${d.code})` }))}
      />
    </div>
  );
}

export function CreateDepartmentDialog({ open, onOpenChange, organizationId }: Props & { organizationId?: string }) {
  const form = useZodForm(createDepartmentInput, {
    organizationId: organizationId ?? '',
    name: '',
    code: '',
    costCenter: '',
    headUserId: null,
    parentId: null,
    active: true,
  });
  const organizations = useOrganizationOptions();
  const create = useCreateDepartment();
  const chosen = form.watch('organizationId');
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New department"
      form={form}
      size="lg"
      submitLabel="Create"
      onSubmit={async (values) => {
        const created = await create.mutateAsync(values);
        toast({
          title: 'Department created',
          description: `${created.name} in ${created.organizationName}`,
          variant: 'success',
        });
      }}
    >
      <FormFieldSelect
        name="organizationId"
        label="Organization"
        required
        options={(organizations.data ?? []).filter((o) => o.active).map((o) => ({ value: o.id, label: o.name }))}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="name" label="Name" required autoComplete="off" />
        <FormFieldText name="code" label="Code" required autoComplete="off" hint="Unique within the organization" />
        <FormFieldText name="costCenter" label="Cost center" autoComplete="off" />
      </div>
      <PeopleAndParent organizationId={chosen} />
      <FormFieldCheckbox name="active" label="Active" />
    </FormDialog>
  );
}

export function EditDepartmentDialog({ department, open, onOpenChange }: Props & { department: Department }) {
  const form = useZodForm(updateDepartmentInput, {
    name: department.name,
    code: department.code,
    costCenter: department.costCenter ?? '',
    headUserId: department.headUserId,
    parentId: department.parentId,
    active: department.active,
  });
  const update = useUpdateDepartment();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Edit ${department.name}`}
      description={department.organizationName}
      form={form}
      size="lg"
      keepValuesOnClose
      onSubmit={async (values) => {
        await update.mutateAsync({ id: department.id, input: values });
        toast({ title: 'Department saved', description: department.name, variant: 'success' });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="name" label="Name" required autoComplete="off" />
        <FormFieldText name="code" label="Code" required autoComplete="off" />
        <FormFieldText name="costCenter" label="Cost center" autoComplete="off" />
      </div>
      <PeopleAndParent organizationId={department.organizationId} selfId={department.id} />
      <FormFieldCheckbox
        name="active"
        label="Active"
        description="Deactivated departments stay in history but take no new people or requests."
      />
    </FormDialog>
  );
}
