import { lazy, Suspense, useState } from 'react';
import { Redirect } from 'wouter';
import { LoadingScreen } from '@/components/loading-screen';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useAuth } from '@/lib/current-user';
import { AuthLayout } from '@/components/auth-layout';
import { LoginForm } from '../components/login-form';
import { useSignInFlow, type SignInOutcome } from '../utils/use-sign-in-flow';
import type { LoginResponse } from '@outlay/contracts/auth';

// Only users with 2FA reach this step, so it loads on demand.
const TwoFactorStep = lazy(() => import('../components/two-factor-step').then((m) => ({ default: m.TwoFactorStep })));

/** /auth, and / or /landing for signed-out visitors (docs/product.md §6.1). */
export default function AuthPage() {
  const { user } = useAuth();
  const completeSignIn = useSignInFlow();
  const [twoFactorToken, setTwoFactorToken] = useState<string | null>(null);
  const [signingIn, setSigningIn] = useState(false);

  // A visit with a valid session goes to the dashboard; a fresh sign-in waits for its 0.5 s redirect.
  if (user && !signingIn) return <Redirect to="/" replace />;

  const handleResponse = async (response: LoginResponse): Promise<SignInOutcome> => {
    setSigningIn(true);
    const outcome = await completeSignIn(response);
    if (outcome.kind === 'two-factor') setTwoFactorToken(outcome.twoFactorToken);
    if (outcome.kind !== 'signed-in') setSigningIn(false);
    return outcome;
  };

  return (
    <AuthLayout>
      <Card className="shadow-md">
        <CardHeader className="pb-2">
          <h1 className="text-2xl font-semibold tracking-tight">
            {twoFactorToken ? 'Two-Factor Authentication' : 'Welcome Back'}
          </h1>
          <CardDescription>
            {twoFactorToken ? 'One more step to confirm it is you.' : 'Sign in to your Outlay account to continue.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="pt-4">
          {twoFactorToken ? (
            <Suspense fallback={<LoadingScreen />}>
              <TwoFactorStep
                twoFactorToken={twoFactorToken}
                onResponse={handleResponse}
                onCancel={() => setTwoFactorToken(null)}
              />
            </Suspense>
          ) : (
            <LoginForm onResponse={handleResponse} />
          )}
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
