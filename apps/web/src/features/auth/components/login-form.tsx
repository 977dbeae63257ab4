import { LogIn } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { MESSAGES } from '@outlay/contracts/errors';
import type { LoginResponse } from '@outlay/contracts/auth';
import { FormField } from '@/components/form/form-field';
import { PasswordInput } from '@/components/form/password-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { isApiError, messageOf } from '@/lib/api-error';
import { useLoginMutation } from '../api/login';
import type { SignInOutcome } from '../utils/use-sign-in-flow';

// The contract's schema (and zod with it) loads when the visitor starts typing, not before the
// form shows; the form itself is two plain inputs, so it does without a form library too: the
// sign-in screen is the one every visit starts on, on whatever phone and network (budget in
// scripts/check-bundle-budget.mjs).
const loadLoginSchema = () => import('@outlay/contracts/auth').then((m) => m.loginInput);

interface LoginFormProps {
  onResponse: (response: LoginResponse) => Promise<SignInOutcome>;
}

export function LoginForm({ onResponse }: LoginFormProps) {
  const [error, setError] = useState<string | null>(null);
  const loginMutation = useLoginMutation();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = (await loadLoginSchema()).safeParse({
      username: String(data.get('username') ?? ''),
      password: String(data.get('password') ?? ''),
    });
    if (!parsed.success) {
      const text = parsed.error.issues[0]?.message ?? MESSAGES.loginRequired;
      setError(text);
      toast({ variant: 'destructive', title: 'Validation Error', description: text });
      return;
    }
    setError(null);
    try {
      const response = await loginMutation.mutateAsync({
        username: parsed.data.username.trim(),
        password: parsed.data.password,
      });
      await onResponse(response);
    } catch (err) {
      // docs/product.md §6.7: a refused login shows the server's plain text, or 'Invalid credentials'.
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

  const pending = loginMutation.isPending;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" aria-label="Sign in">
      <FormField label="Username" hint="Your username is your first name in lowercase.">
        <Input
          autoComplete="username"
          onFocus={() => void loadLoginSchema()}
          autoCapitalize="none"
          spellCheck={false}
          placeholder="e.g. olivia"
          name="username"
        />
      </FormField>
      <FormField label="Password">
        <PasswordInput autoComplete="current-password" placeholder="Enter your password" name="password" />
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
