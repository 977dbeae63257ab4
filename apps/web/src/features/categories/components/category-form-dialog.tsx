import { createCategoryInput, updateCategoryInput, type Category } from '@outlay/contracts/categories';
import { FormDialog, FormFieldCheckbox, FormFieldSelect, FormFieldText, useZodForm } from '@/components/form';
import { toast } from '@/components/ui/use-toast';
import { useCategoryOptions } from '../api/list-category-options';
import { useCreateCategory } from '../api/create-category';
import { useUpdateCategory } from '../api/update-category';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function Fields({ selfId }: { selfId?: string }) {
  const parents = useCategoryOptions();
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText name="name" label="Name" required autoComplete="off" />
        <FormFieldText name="code" label="Code" required autoComplete="off" hint="Unique, e.g. TRV-AIR" />
        <FormFieldText
          name="glAccount"
          label="GL account"
          required
          autoComplete="off"
          hint="The ledger account it posts to"
        />
        <FormFieldSelect
          name="parentId"
          label="Parent category"
          emptyOption="No parent (top level)"
          options={(parents.data ?? [])
            .filter((c) => c.id !== selfId)
            .map((c) => ({ value: c.id, label: `${c.name} (${c.code})` }))}
        />
      </div>
      <p className="text-sm text-muted-foreground">
        Per-request limits and receipt thresholds are policy rules: set them in Policy Management, where each keeps its
        version history.
      </p>
      <FormFieldCheckbox
        name="active"
        label="Active"
        description="Inactive categories cannot be chosen on new requests."
      />
    </>
  );
}

export function CreateCategoryDialog({ open, onOpenChange }: Props) {
  const form = useZodForm(createCategoryInput, {
    name: '',
    code: '',
    glAccount: '',
    parentId: null,
    active: true,
  });
  const create = useCreateCategory();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New category"
      form={form}
      size="lg"
      submitLabel="Create"
      onSubmit={async (values) => {
        const created = await create.mutateAsync(values);
        toast({ title: 'Category created', description: `${created.name} (${created.code})`, variant: 'success' });
      }}
    >
      <Fields />
    </FormDialog>
  );
}

export function EditCategoryDialog({ category, open, onOpenChange }: Props & { category: Category }) {
  const form = useZodForm(updateCategoryInput, {
    name: category.name,
    code: category.code,
    glAccount: category.glAccount,
    parentId: category.parentId,
    active: category.active,
  });
  const update = useUpdateCategory();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Edit ${category.name}`}
      form={form}
      size="lg"
      keepValuesOnClose
      onSubmit={async (values) => {
        await update.mutateAsync({ id: category.id, input: values });
        toast({ title: 'Category saved', description: category.name, variant: 'success' });
      }}
    >
      <Fields selfId={category.id} />
    </FormDialog>
  );
}
