import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { Link } from 'wouter';
import { MESSAGES } from '@outlay/contracts/errors';
import type { LoginInput, LoginResponse } from '@outlay/contracts';
import { FormField } from '@/components/form/form-field';
import { PasswordInput } from '@/components/form/password-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { isApiError, messageOf } from '@/lib/api-error';
import { firstFormError } from '@/lib/form-errors';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { useLoginMutation } from '../api/login';
import type { SignInOutcome } from '../utils/use-sign-in-flow';

const loadLoginSchema = () => import('@outlay/contracts/auth').then((m) => m.loginInput);
const loginResolver = lazyZodResolver<LoginInput>(loadLoginSchema);

interface LoginFormProps {
  onResponse: (response: LoginResponse) => Promise<SignInOutcome>;
}

export function LoginForm({ onResponse }: LoginFormProps) {
  const [error, setError] = useState<string | null>(null);
  const loginMutation = useLoginMutation();
  const form = useForm<LoginInput>({
    resolver: loginResolver,
    defaultValues: { username: '', password: '' },
  });

  const onValid = async (values: LoginInput) => {
    setError(null);
    try {
      const response = await loginMutation.mutateAsync({ username: values.username.trim(), password: values.password });
      await onResponse(response);
    } catch (err) {
      // Seed §8: a refused login shows the server's plain text, or 'Invalid credentials'.
      if (isApiError(err) && err.status < 500) {
        const text = err.serverMessage || MESSAGES.invalidCredentials;
        setError(text);
        toast({ variant: 'destructive', title: 'Login Failed', description: text });
      } else {
        const text = messageOf(err, 'An error occurred during login');
        setError(text);
        toast({ variant: 'destructive', title: 'Error', description: text });
      }
    }
  };

  const onInvalid = (errors: FieldErrors) => {
    const text = firstFormError(errors) ?? MESSAGES.loginRequired;
    setError(text);
    toast({ variant: 'destructive', title: 'Validation Error', description: text });
  };

  const pending = loginMutation.isPending;
  return (
    <form noValidate onSubmit={form.handleSubmit(onValid, onInvalid)} className="flex flex-col gap-4" aria-label="Sign in">
      <FormField label="Username" hint="Your username is your first name in lowercase.">
        <Input autoComplete="username" onFocus={() => void loadLoginSchema()} autoCapitalize="none" spellCheck={false} placeholder="e.g. olivia" {...form.register('username')} />
      </FormField>
      <FormField label="Password">
        <PasswordInput autoComplete="current-password" placeholder="Enter your password" {...form.register('password')} />
      </FormField>
      {error && (
        <Alert variant="danger" role="alert" data-testid="login-error">
          {error}
        </Alert>
      )}
      <Button type="submit" size="lg" disabled={pending} className="w-full">
        <LogIn aria-hidden="true" />
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        New to Outlay?{' '}
        <Link href="/register" className="font-medium text-primary underline-offset-4 hover:underline">
          Request Access
        </Link>
      </p>
    </form>
  );
}
