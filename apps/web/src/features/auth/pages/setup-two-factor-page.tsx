import { CheckCircle2, Smartphone } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { totpCodeSchema } from '@outlay/contracts/auth';
import { REDIRECT_AFTER_2FA_ENABLE_MS, TOTP_DIGITS } from '@outlay/contracts/constants';
import { MESSAGES } from '@outlay/contracts/errors';
import { FormField } from '@/components/form/form-field';
import { LoadingScreen } from '@/components/loading-screen';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { useAuth } from '@/lib/current-user';
import { useEnableTwoFactorMutation, useSetupTwoFactorMutation } from '../api/two-factor';
import { AuthLayout } from '@/components/auth-layout';
import { RecoveryCodes } from '../components/recovery-codes';
import { TwoFactorCodeInput } from '../components/two-factor-code-input';

const AUTHENTICATOR_APPS = ['Google Authenticator', 'Microsoft Authenticator', 'Authy', '1Password'];

type Step = { kind: 'setup' } | { kind: 'codes'; recoveryCodes: string[] } | { kind: 'success' };

export default function SetupTwoFactorPage() {
  const { user, isLoading } = useAuth();
  const required = new URLSearchParams(useSearch()).get('required') === 'true';
  const [step, setStep] = useState<Step>({ kind: 'setup' });

  if (isLoading) return <LoadingScreen />;
  return (
    <AuthLayout>
      <Card className="shadow-md">
        {!user ? (
          <SignInFirst />
        ) : step.kind === 'success' ? (
          <SuccessStep />
        ) : step.kind === 'codes' ? (
          <CodesStep codes={step.recoveryCodes} onDone={() => setStep({ kind: 'success' })} />
        ) : user.twoFactorEnabled ? (
          <AlreadyEnabled />
        ) : (
          <SetupStep required={required} onEnabled={(recoveryCodes) => setStep({ kind: 'codes', recoveryCodes })} />
        )}
      </Card>
    </AuthLayout>
  );
}

function Heading({ title, description }: { title: string; description: string }) {
  return (
    <CardHeader className="pb-2">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <CardDescription>{description}</CardDescription>
    </CardHeader>
  );
}

function SetupStep({ required, onEnabled }: { required: boolean; onEnabled: (codes: string[]) => void }) {
  const setup = useSetupTwoFactorMutation();
  const enable = useEnableTwoFactorMutation();
  const [code, setCode] = useState('');
  const started = useRef(false);

  useEffect(() => {
    // Each setup call mints a new secret, so ask once per visit.
    if (started.current) return;
    started.current = true;
    setup.mutate();
  }, [setup]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = totpCodeSchema.safeParse(code);
    if (!parsed.success) {
      toast({ variant: 'destructive', title: 'Invalid Code', description: MESSAGES.totpInvalid });
      return;
    }
    try {
      const result = await enable.mutateAsync(parsed.data);
      onEnabled(result.recoveryCodes);
    } catch {
      setCode('');
      toast({ variant: 'warning', title: 'Verification Failed', description: MESSAGES.totpWrong });
    }
  };

  return (
    <>
      <Heading
        title="Set Up Two-Factor Authentication"
        description="Add a second step to your sign-in with an authenticator app."
      />
      <CardContent className="flex flex-col gap-5 pt-4">
        {required && (
          <Alert variant="warning">
            <p>Your role requires two-factor authentication. Set it up to continue.</p>
          </Alert>
        )}
        <ol className="flex flex-col gap-1 text-sm text-muted-foreground">
          <li>1. Scan the QR code with your authenticator app.</li>
          <li>2. Enter the 6-digit code the app shows.</li>
        </ol>
        <div className="flex flex-col items-center gap-3">
          {setup.isPending || setup.isIdle ? (
            <div className="flex size-48 items-center justify-center rounded-lg border bg-muted">
              <LoadingScreen label="Preparing your QR code" />
            </div>
          ) : setup.isError ? (
            <Alert variant="danger" className="w-full">
              <p>
                {messageOf(setup.error, 'Could not start two-factor setup.')}{' '}
                <Button variant="link" size="sm" onClick={() => setup.mutate()}>
                  Try again
                </Button>
              </p>
            </Alert>
          ) : (
            setup.data && (
              <>
                <img
                  src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.data.qrCode)}`}
                  alt="QR code to add Outlay to your authenticator app"
                  className="size-48 rounded-lg border bg-white p-2"
                  data-testid="totp-qr"
                />
                <div className="w-full text-center text-xs text-muted-foreground">
                  <p>Can't scan? Enter this key in your app instead:</p>
                  <code
                    className="mt-1 block break-all rounded-md bg-muted px-2 py-1.5 font-mono text-sm tracking-wider text-foreground"
                    data-testid="totp-secret"
                  >
                    {setup.data.secret}
                  </code>
                </div>
              </>
            )
          )}
        </div>
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <FormField label="Verification code">
            <TwoFactorCodeInput value={code} onValueChange={setCode} />
          </FormField>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            {!required && (
              <Button variant="outline" className="flex-1" onClick={() => navigate('/')}>
                Skip for Now
              </Button>
            )}
            <Button
              type="submit"
              className="flex-1"
              disabled={code.length !== TOTP_DIGITS || enable.isPending || !setup.data}
            >
              {enable.isPending ? 'Enabling...' : 'Enable 2FA'}
            </Button>
          </div>
        </form>
        <div className="rounded-lg border p-4">
          <p className="flex items-center gap-2 text-sm font-medium">
            <Smartphone className="size-4 text-muted-foreground" aria-hidden="true" /> Recommended authenticator apps
          </p>
          <ul className="mt-2 grid grid-cols-2 gap-2 text-sm text-muted-foreground">
            {AUTHENTICATOR_APPS.map((app) => (
              <li key={app} className="rounded-md bg-muted px-2 py-1.5">
                {app}
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
    </>
  );
}

function CodesStep({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <>
      <Heading
        title="Save Your Recovery Codes"
        description="If you lose your phone, each of these codes signs you in once. They will not be shown again."
      />
      <CardContent className="flex flex-col gap-4 pt-4">
        <RecoveryCodes codes={codes} />
        <Button onClick={onDone} size="lg">
          I've saved my recovery codes
        </Button>
      </CardContent>
    </>
  );
}

function SuccessStep() {
  useEffect(() => {
    const timer = window.setTimeout(() => navigate('/'), REDIRECT_AFTER_2FA_ENABLE_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <CardContent className="flex flex-col items-center gap-4 py-10 text-center">
      <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />
      <h1 className="text-2xl font-semibold tracking-tight">Two-Factor Authentication Enabled</h1>
      <p className="text-sm text-muted-foreground">
        From now on you will enter a code from your authenticator app when you sign in.
      </p>
      <Button size="lg" onClick={() => navigate('/')}>
        Continue to Dashboard
      </Button>
    </CardContent>
  );
}

function AlreadyEnabled() {
  return (
    <>
      <Heading
        title="Two-Factor Authentication"
        description="Two-factor authentication is already on for your account."
      />
      <CardContent className="flex flex-col gap-3 pt-4">
        <p className="text-sm text-muted-foreground">You can turn it off from the Security tab of your profile.</p>
        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <Link href="/">Go to Dashboard</Link>
          </Button>
          <Button asChild variant="outline">
            <Link href="/profile">Open Profile</Link>
          </Button>
        </div>
      </CardContent>
    </>
  );
}

function SignInFirst() {
  return (
    <>
      <Heading title="Two-Factor Authentication" description="Sign in first to set up two-factor authentication." />
      <CardContent className="pt-4">
        <Button asChild>
          <Link href="/auth">Go to Sign In</Link>
        </Button>
      </CardContent>
    </>
  );
}
