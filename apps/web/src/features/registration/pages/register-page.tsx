import { zodResolver } from '@hookform/resolvers/zod';
import { AtSign, CheckCircle2, Info, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { Link } from 'wouter';
import type { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '@outlay/contracts/constants';
import {
  registrationFormSchema,
  requestableRoleOptions,
  type RegistrationRequestInput,
} from '@outlay/contracts/registration-requests';
import { FormField } from '@/components/form/form-field';
import { PasswordInput } from '@/components/form/password-input';
import { QueryState } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { firstFormError } from '@/lib/form-errors';
import { AuthLayout } from '@/components/auth-layout';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';
import { useCreateRegistrationRequest } from '../api/create-registration-request';
import { useRegistrationConfig } from '../api/registration-config';
import { registrationFailureToast } from '../utils/registration-errors';

type RegistrationFormSchema = ReturnType<typeof registrationFormSchema>;
type RegistrationFormInput = z.input<RegistrationFormSchema>;
type RegistrationFormValues = z.output<RegistrationFormSchema>;

export default function RegisterPage() {
  const [submitted, setSubmitted] = useState(false);
  return (
    <AuthLayout wide>
      {submitted ? <RequestSubmitted /> : <RegistrationForm onSubmitted={() => setSubmitted(true)} />}
    </AuthLayout>
  );
}

function RegistrationForm({ onSubmitted }: { onSubmitted: () => void }) {
  const config = useRegistrationConfig();
  const domains = config.data?.authorizedDomains;
  const roles = config.data?.requestableRoles ?? requestableRoleOptions;
  const create = useCreateRegistrationRequest();

  // The authorized domains are a live setting, so the schema is built from the server's answer.
  const schema = useMemo(() => registrationFormSchema(domains ?? []), [domains]);
  const form = useForm<RegistrationFormInput, unknown, RegistrationFormValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
      requestedRole: '' as RegistrationRequestInput['requestedRole'],
      message: '',
    },
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const errors = form.formState.errors;

  const onValid = async ({ confirmPassword: _confirm, message, ...rest }: RegistrationFormValues) => {
    try {
      await create.mutateAsync({ ...rest, ...(message ? { message } : {}) });
      toast({
        variant: 'success',
        title: 'Registration Request Submitted',
        description: 'Your request has been submitted and will be reviewed by an administrator',
      });
      onSubmitted();
    } catch (error) {
      toast({ variant: 'destructive', ...registrationFailureToast(error) });
    }
  };

  const onInvalid = (fieldErrors: FieldErrors) => {
    const text = firstFormError(fieldErrors);
    if (text) toast({ variant: 'destructive', title: 'Validation Error', description: text });
  };

  return (
    <Card className="shadow-md">
      <CardHeader className="pb-2">
        <span className="mb-2 inline-flex size-10 items-center justify-center rounded-lg bg-blue-100 text-blue-800">
          <UserPlus className="size-5" aria-hidden="true" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">Request Access</h1>
        <CardDescription>
          Tell us who you are. An administrator reviews every request and activates your account.
        </CardDescription>
      </CardHeader>
      <CardContent className="pt-4">
        <form
          noValidate
          onSubmit={form.handleSubmit(onValid, onInvalid)}
          className="flex flex-col gap-4"
          aria-label="Registration request"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="First Name" error={errors.firstName?.message}>
              <Input autoComplete="given-name" {...form.register('firstName')} />
            </FormField>
            <FormField label="Last Name" error={errors.lastName?.message}>
              <Input autoComplete="family-name" {...form.register('lastName')} />
            </FormField>
          </div>
          <FormField label="Work Email" error={errors.email?.message} hint="Use your company address.">
            <Input type="email" autoComplete="email" placeholder="name@meridiangroup.com" {...form.register('email')} />
          </FormField>
          <div className="-mt-2 flex flex-col gap-1.5">
            <p id="authorized-domains-label" className="text-xs font-medium text-muted-foreground">
              Authorized email domains
            </p>
            <QueryState
              query={config}
              loadingLabel="Loading the authorized domains"
              errorMessage="Registration settings could not be loaded."
              compact
            >
              {({ authorizedDomains }) => (
                <ul
                  aria-labelledby="authorized-domains-label"
                  className="flex flex-wrap gap-1.5"
                  data-testid="domain-chips"
                >
                  {authorizedDomains.map((domain) => (
                    <li
                      key={domain}
                      className="inline-flex items-center gap-1 rounded-full border bg-muted px-2.5 py-0.5 text-xs font-medium text-slate-700"
                    >
                      <AtSign className="size-3" aria-hidden="true" />
                      {domain}
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Password" error={errors.password?.message}>
              <PasswordInput
                autoComplete="new-password"
                maxLength={PASSWORD_MAX_LENGTH}
                {...form.register('password')}
              />
            </FormField>
            <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
              <PasswordInput
                autoComplete="new-password"
                maxLength={PASSWORD_MAX_LENGTH}
                {...form.register('confirmPassword')}
              />
            </FormField>
          </div>
          <PasswordStrengthMeter password={password} showRequirements={false} />
          <Controller
            control={form.control}
            name="requestedRole"
            render={({ field }) => (
              <FormField label="Requested Role" error={errors.requestedRole?.message}>
                {(control) => (
                  <Select value={field.value || undefined} onValueChange={field.onChange}>
                    <SelectTrigger {...control} onBlur={field.onBlur} ref={field.ref}>
                      <SelectValue placeholder="Select a role" />
                    </SelectTrigger>
                    <SelectContent>
                      {roles.map((role) => (
                        <SelectItem key={role.value} value={role.value}>
                          {role.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              </FormField>
            )}
          />
          <Alert variant="info">
            <Info aria-hidden="true" />
            <p>You may request a specific role, but the final role assignment is at the administrator's discretion.</p>
          </Alert>
          <FormField label="Message (optional)" error={errors.message?.message}>
            <Textarea
              className="min-h-[100px]"
              placeholder="Your department, your manager, or why you need access"
              maxLength={2000}
              {...form.register('message')}
            />
          </FormField>
          <Button type="submit" size="lg" className="w-full" disabled={create.isPending || !config.data}>
            {create.isPending ? 'Submitting...' : 'Submit Request'}
          </Button>
          <p className="text-center text-sm text-muted-foreground">
            Already have an account?{' '}
            <a href="/api/login" className="font-medium text-primary underline-offset-4 hover:underline">
              Sign in
            </a>
          </p>
        </form>
      </CardContent>
    </Card>
  );
}

function RequestSubmitted() {
  return (
    <Card className="shadow-md">
      <CardContent className="flex flex-col items-center gap-4 py-12 text-center">
        <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />
        <h1 className="text-2xl font-semibold tracking-tight">Request Submitted</h1>
        <p className="max-w-md text-sm text-muted-foreground">
          Your request has been submitted and will be reviewed by an administrator. You will be able to sign in once
          your account has been approved and activated.
        </p>
        <Button asChild size="lg">
          <Link href="/">Return to Home</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
