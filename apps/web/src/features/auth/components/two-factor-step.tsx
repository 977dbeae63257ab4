import { ArrowLeft, KeyRound, ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { totpCodeSchema, totpOrRecoveryCode, type LoginResponse } from '@outlay/contracts/auth';
import { TOTP_DIGITS } from '@outlay/contracts/constants';
import { MESSAGES } from '@outlay/contracts/errors';
import { FormField } from '@/components/form/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-error';
import { useVerifyTwoFactorMutation } from '../api/verify-two-factor';
import { sanitizeRecoveryInput } from '../utils/two-factor-code';
import type { SignInOutcome } from '../utils/use-sign-in-flow';
import { TwoFactorCodeInput } from './two-factor-code-input';

interface TwoFactorStepProps {
  twoFactorToken: string;
  onResponse: (response: LoginResponse) => Promise<SignInOutcome>;
  onCancel: () => void;
}

/** docs/product.md §2.2: the second sign-in step, with the same validation and messages as /setup-2fa. */
export function TwoFactorStep({ twoFactorToken, onResponse, onCancel }: TwoFactorStepProps) {
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [code, setCode] = useState('');
  const verify = useVerifyTwoFactorMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = (mode === 'totp' ? totpCodeSchema : totpOrRecoveryCode).safeParse(code);
    if (!parsed.success) {
      toast({ variant: 'destructive', title: 'Invalid Code', description: MESSAGES.totpInvalid });
      return;
    }
    try {
      const response = await verify.mutateAsync({ twoFactorToken, totpCode: parsed.data });
      await onResponse(response);
    } catch (error) {
      // An expired or exhausted sign-in attempt cannot be retried with another code.
      if (isApiError(error) && (error.status === 429 || error.code === 'INVALID_TOKEN')) {
        toast({ variant: 'destructive', title: 'Login Failed', description: error.serverMessage });
        onCancel();
        return;
      }
      setCode('');
      toast({ variant: 'warning', title: 'Verification Failed', description: MESSAGES.totpWrong });
    }
  };

  const ready = mode === 'totp' ? code.length === TOTP_DIGITS : code.length >= 10;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5" aria-label="Two-factor verification">
      <div className="flex items-start gap-3 rounded-lg bg-blue-50 p-3 text-sm text-blue-950">
        <ShieldCheck className="mt-0.5 size-5 shrink-0 text-blue-700" aria-hidden="true" />
        <p>
          {mode === 'totp'
            ? 'Enter the 6-digit code from your authenticator app to finish signing in.'
            : 'Enter one of the recovery codes you saved when you turned on two-factor authentication.'}
        </p>
      </div>
      {mode === 'totp' ? (
        <FormField label="Authentication code">
          <TwoFactorCodeInput value={code} onValueChange={setCode} autoFocus />
        </FormField>
      ) : (
        <FormField label="Recovery code" hint="Format: ABCDE-12345. Each code works once.">
          <Input
            value={code}
            onChange={(e) => setCode(sanitizeRecoveryInput(e.target.value))}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="ABCDE-12345"
            className="h-12 text-center font-mono text-lg tracking-widest"
            autoFocus
          />
        </FormField>
      )}
      <Button type="submit" size="lg" className="w-full" disabled={!ready || verify.isPending}>
        {verify.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <Button variant="ghost" size="sm" onClick={onCancel}>
          <ArrowLeft aria-hidden="true" /> Back to sign in
        </Button>
        <Button
          variant="link"
          size="sm"
          onClick={() => {
            setCode('');
            setMode(mode === 'totp' ? 'recovery' : 'totp');
          }}
        >
          <KeyRound aria-hidden="true" />
          {mode === 'totp' ? 'Use a recovery code' : 'Use an authenticator code'}
        </Button>
      </div>
    </form>
  );
}
