import { Controller } from 'react-hook-form';
import { PERMISSIONS, type Permission, type Scope } from '@outlay/contracts/permissions';
import { PERMISSION_LABELS, SCOPE_LABELS, customRoleInput, type CustomRole } from '@outlay/contracts/roles';
import { SCOPES } from '@outlay/contracts/permissions';
import {
  Checkbox,
  FormDialog,
  FormField,
  FormFieldSelect,
  FormFieldText,
  FormFieldTextarea,
  useStepUp,
  useZodForm,
} from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { useCreateCustomRole, useUpdateCustomRole } from '../api/custom-role-mutations';

const SCOPE_OPTIONS = SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s] }));

/** Create or edit a custom role: a name, a scope and permissions from the catalogue that the caller holds. */
export function CustomRoleFormDialog({ role, onClose }: { role: CustomRole | null; onClose: () => void }) {
  const stepUp = useStepUp();
  const create = useCreateCustomRole(stepUp);
  const update = useUpdateCustomRole(stepUp);
  const { toast } = useToast();
  const { user } = useAuth();
  const mine = new Set<Permission>(user?.permissions ?? []);
  const form = useZodForm(customRoleInput, {
    name: role?.name ?? '',
    description: role?.description ?? '',
    permissions: role?.permissions ?? [],
    scope: (role?.scope ?? 'organization') as Scope,
  });
  return (
    <>
      <FormDialog
        open
        size="lg"
        onOpenChange={(open) => !open && onClose()}
        title={role ? `Edit ${role.name}` : 'New custom role'}
        description="A custom role adds permissions to a person's system role, at the scope you choose. You can only grant what you hold yourself."
        form={form}
        submitLabel={role ? 'Save changes' : 'Create role'}
        pendingLabel="Saving…"
        onSubmit={async (values) => {
          if (role) await update.mutateAsync({ id: role.id, input: values });
          else await create.mutateAsync(values);
          toast({
            variant: 'success',
            title: role ? 'Custom role saved' : 'Custom role created',
            description: values.name,
          });
          onClose();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormFieldText name="name" label="Name" required autoComplete="off" />
          <FormFieldSelect name="scope" label="Scope" options={SCOPE_OPTIONS} required />
        </div>
        <FormFieldTextarea name="description" label="Description" rows={2} />
        <Controller
          control={form.control}
          name="permissions"
          render={({ field, fieldState }) => {
            const value = (field.value ?? []) as Permission[];
            return (
              <FormField label="Permissions" error={fieldState.error?.message}>
                {(control) => (
                  <fieldset
                    id={control.id}
                    aria-describedby={control['aria-describedby']}
                    className="grid max-h-72 gap-2 overflow-y-auto rounded-md border p-3 sm:grid-cols-2"
                  >
                    <legend className="sr-only">Permissions</legend>
                    {PERMISSIONS.map((p) => {
                      const held = mine.has(p);
                      return (
                        <label
                          key={p}
                          className="flex items-start gap-2 text-sm"
                          title={held ? p : `${p}: you do not hold this permission`}
                        >
                          <Checkbox
                            className="mt-0.5"
                            disabled={!held && !value.includes(p)}
                            checked={value.includes(p)}
                            onCheckedChange={(checked) =>
                              field.onChange(checked ? [...value, p] : value.filter((x) => x !== p))
                            }
                          />
                          <span className={held ? undefined : 'text-muted-foreground'}>{PERMISSION_LABELS[p]}</span>
                        </label>
                      );
                    })}
                  </fieldset>
                )}
              </FormField>
            );
          }}
        />
      </FormDialog>
      {stepUp.dialog}
    </>
  );
}
