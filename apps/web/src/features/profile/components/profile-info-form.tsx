import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldErrors } from 'react-hook-form';
import { MESSAGES } from '@outlay/contracts/errors';
import type { Profile } from '@outlay/contracts/auth';
import { FieldError, FormField } from '@/components/form/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { firstFormError, formLevelError } from '@/lib/form-errors';
import { useUpdateProfileMutation } from '../api/profile';
import { profileFormSchema, type ProfileFormInput, type ProfileFormValues } from '../utils/profile-form';

export function ProfileInfoForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfileMutation();
  const form = useForm<ProfileFormInput, unknown, ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    values: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: profile.email,
      phoneNumber: profile.phoneNumber ?? '',
    },
    resetOptions: { keepDirtyValues: true },
  });
  const rootError = formLevelError(form.formState.errors);

  const onValid = async (values: ProfileFormValues) => {
    try {
      await update.mutateAsync({
        firstName: values.firstName,
        lastName: values.lastName,
        email: values.email,
        phoneNumber: values.phoneNumber ?? '',
      });
      toast({ variant: 'success', title: 'Success', description: 'Profile updated successfully' });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: messageOf(error, 'Failed to update profile') });
    }
  };

  const onInvalid = (errors: FieldErrors) => {
    toast({
      variant: 'destructive',
      title: 'Validation Error',
      description: firstFormError(errors) ?? MESSAGES.namesRequired,
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Personal Information</CardTitle>
        <CardDescription>Your name and contact details as colleagues see them.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={form.handleSubmit(onValid, onInvalid)}
          className="flex flex-col gap-4"
          aria-label="Personal Information"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="First Name *">
              <Input autoComplete="given-name" required {...form.register('firstName')} />
            </FormField>
            <FormField label="Last Name *">
              <Input autoComplete="family-name" required {...form.register('lastName')} />
            </FormField>
          </div>
          {rootError && <FieldError>{rootError}</FieldError>}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Email Address">
              <Input type="email" autoComplete="email" {...form.register('email')} />
            </FormField>
            <FormField label="Phone Number">
              <Input type="tel" autoComplete="tel" placeholder="+1 555 010 0100" {...form.register('phoneNumber')} />
            </FormField>
          </div>
          <div>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Updating...' : 'Update Profile'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
