import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { totpOrRecoveryCode, type Profile } from '@outlay/contracts/auth';
import { MESSAGES } from '@outlay/contracts/errors';
import { FormField } from '@/components/form/form-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useDisableTwoFactorMutation } from '@/features/auth';

export function TwoFactorCard({ profile }: { profile: Profile }) {
  const disable = useDisableTwoFactorMutation();
  const [code, setCode] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = totpOrRecoveryCode.safeParse(code);
    if (!parsed.success) {
      toast({ variant: 'destructive', title: 'Invalid Code', description: MESSAGES.totpInvalid });
      return;
    }
    try {
      await disable.mutateAsync(parsed.data);
      setCode('');
      toast({ variant: 'success', title: 'Two-factor authentication turned off' });
    } catch {
      toast({ variant: 'warning', title: 'Verification Failed', description: MESSAGES.totpWrong });
    }
  };

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>Two-Factor Authentication</CardTitle>
          {profile.twoFactorEnabled ? <Badge variant="success">On</Badge> : <Badge>Off</Badge>}
        </div>
        <CardDescription>
          {profile.twoFactorEnabled
            ? 'Sign-in asks for a code from your authenticator app.'
            : 'Protect your account with a code from an authenticator app at sign-in.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {profile.twoFactorEnabled ? (
          <form noValidate onSubmit={submit} className="flex max-w-xl flex-col gap-3 sm:flex-row sm:items-end">
            <FormField label="Code to turn off 2FA" className="flex-1" hint="A 6-digit code or a recovery code.">
              <Input
                value={code}
                onChange={(e) =>
                  setCode(
                    e.target.value
                      .toUpperCase()
                      .replace(/[^A-Z0-9-]/g, '')
                      .slice(0, 11),
                  )
                }
                autoComplete="one-time-code"
                placeholder="123456"
                className="font-mono tracking-widest"
              />
            </FormField>
            <Button type="submit" variant="outline" disabled={disable.isPending || code.length < 6} className="sm:mb-6">
              <ShieldOff aria-hidden="true" />
              {disable.isPending ? 'Turning off...' : 'Turn off 2FA'}
            </Button>
          </form>
        ) : (
          <Button asChild>
            <Link href="/setup-2fa">
              <ShieldCheck aria-hidden="true" /> Set Up 2FA
            </Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
