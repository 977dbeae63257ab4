import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { ROLES, ROLE_LABELS, type Role } from '@outlay/contracts/roles';
import { SECURITY_LIMITS, securitySettingsInput, type SecuritySettings } from '@outlay/contracts/security';
import { Checkbox, Form, FormField, FormFieldText, useZodForm } from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Textarea } from '@/components/ui/textarea';
import { useToast } from '@/components/ui/use-toast';
import { formatMinutes } from '@/lib/format';
import { useSaveSecuritySettings } from '../api/security-settings';

const L = SECURITY_LIMITS;

function firstError(errors: unknown): string | undefined {
  if (!errors) return undefined;
  if (Array.isArray(errors)) return errors.map(firstError).find(Boolean);
  const e = errors as { message?: string };
  return e.message;
}

/** The /security form: every value here drives sign-in, passwords, sessions and registration. */
export function SecuritySettingsForm({
  settings,
  currentRole,
  twoFactorEnabled,
}: {
  settings: SecuritySettings;
  currentRole: Role | undefined;
  twoFactorEnabled: boolean;
}) {
  const save = useSaveSecuritySettings();
  const { toast } = useToast();
  const form = useZodForm(securitySettingsInput, {
    passwordMinLength: settings.passwordMinLength,
    lockoutThreshold: settings.lockoutThreshold,
    lockoutMinutes: settings.lockoutMinutes,
    sessionLifetimeDays: settings.sessionLifetimeDays,
    idleTimeoutMinutes: settings.idleTimeoutMinutes,
    twoFactorRequiredRoles: settings.twoFactorRequiredRoles,
    authorizedDomains: settings.authorizedDomains,
  });
  const [domainsText, setDomainsText] = useState(settings.authorizedDomains.join('\n'));
  const required = (form.watch('twoFactorRequiredRoles') ?? []) as Role[];
  const selfAffected = currentRole !== undefined && required.includes(currentRole) && !twoFactorEnabled;
  // The value as a span people read ("10,080 minutes (7 days)"), while it is one the policy takes.
  const idle = Number(form.watch('idleTimeoutMinutes'));
  const idleHint =
    Number.isInteger(idle) && idle >= L.idleTimeoutMinutes.min && idle <= L.idleTimeoutMinutes.max
      ? `${formatMinutes(idle)} without activity ends a session`
      : 'Minutes without activity before a session ends';

  return (
    <Form
      form={form}
      aria-label="Security settings"
      onSubmit={async (values) => {
        const saved = await save.mutateAsync(values);
        form.reset({ ...values, authorizedDomains: saved.authorizedDomains });
        setDomainsText(saved.authorizedDomains.join('\n'));
        toast({
          variant: 'success',
          title: 'Security settings saved',
          description: 'They apply from the next sign-in and the next request.',
        });
      }}
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Passwords and lockout</CardTitle>
            <CardDescription>New passwords must be this long. Repeated failures lock the username.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <FormFieldText
              name="passwordMinLength"
              label="Minimum password length"
              type="number"
              inputMode="numeric"
              min={L.passwordMinLength.min}
              max={L.passwordMinLength.max}
              hint={`${L.passwordMinLength.min} to ${L.passwordMinLength.max} characters`}
              required
              className="sm:col-span-2"
            />
            <FormFieldText
              name="lockoutThreshold"
              label="Lockout threshold"
              type="number"
              inputMode="numeric"
              min={L.lockoutThreshold.min}
              max={L.lockoutThreshold.max}
              hint="Failed sign-ins within 15 minutes"
              required
            />
            <FormFieldText
              name="lockoutMinutes"
              label="Lockout duration (minutes)"
              type="number"
              inputMode="numeric"
              min={L.lockoutMinutes.min}
              max={L.lockoutMinutes.max}
              hint="Doubles when it happens again within a day"
              required
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Sessions</CardTitle>
            <CardDescription>How long a sign-in lasts, and how long it may sit unused.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <FormFieldText
              name="sessionLifetimeDays"
              label="Session lifetime (days)"
              type="number"
              inputMode="numeric"
              min={L.sessionLifetimeDays.min}
              max={L.sessionLifetimeDays.max}
              hint="Applies to new sign-ins"
              required
            />
            <FormFieldText
              name="idleTimeoutMinutes"
              label="Idle timeout (minutes)"
              type="number"
              inputMode="numeric"
              min={L.idleTimeoutMinutes.min}
              max={L.idleTimeoutMinutes.max}
              hint={idleHint}
              required
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Two-factor authentication</CardTitle>
            <CardDescription>
              People holding a ticked role must set up two-factor before they can do anything else.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Controller
              control={form.control}
              name="twoFactorRequiredRoles"
              render={({ field }) => {
                const value = (field.value ?? []) as Role[];
                return (
                  <fieldset className="grid gap-2 sm:grid-cols-2">
                    <legend className="sr-only">Roles that require two-factor authentication</legend>
                    {ROLES.map((role) => (
                      <label key={role} className="flex items-center gap-2 text-sm">
                        <Checkbox
                          checked={value.includes(role)}
                          onCheckedChange={(checked) =>
                            field.onChange(checked ? [...value, role] : value.filter((r) => r !== role))
                          }
                        />
                        {ROLE_LABELS[role]}
                      </label>
                    ))}
                  </fieldset>
                );
              }}
            />
            {selfAffected && (
              <Alert variant="warning" role="status">
                <p>
                  Your own role is ticked and you have not set up two-factor yet: after saving you will be asked to set
                  it up first.
                </p>
              </Alert>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Authorized e-mail domains</CardTitle>
            <CardDescription>Registration is open to these domains and their subdomains. One per line.</CardDescription>
          </CardHeader>
          <CardContent>
            <Controller
              control={form.control}
              name="authorizedDomains"
              render={({ field, fieldState }) => (
                <FormField
                  label="Domains"
                  error={firstError(fieldState.error) ?? firstError(form.formState.errors.authorizedDomains)}
                >
                  <Textarea
                    rows={6}
                    value={domainsText}
                    spellCheck={false}
                    className="font-mono text-sm"
                    onBlur={field.onBlur}
                    onChange={(event) => {
                      setDomainsText(event.target.value);
                      field.onChange(
                        event.target.value
                          .split(/[\s,;]+/)
                          .map((d) => d.trim())
                          .filter(Boolean),
                      );
                    }}
                  />
                </FormField>
              )}
            />
          </CardContent>
        </Card>
      </div>
      <div className="flex justify-end gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={!form.formState.isDirty || form.formState.isSubmitting}
          onClick={() => {
            form.reset();
            setDomainsText(settings.authorizedDomains.join('\n'));
          }}
        >
          Discard changes
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </Form>
  );
}
