import { Check, Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/format';

export interface TemporaryPasswordShown {
  title: string;
  name: string;
  username: string;
  password: string;
  expiresAt: string;
}

/** Copies text to the clipboard and says so; a refused clipboard gets a clear message. */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
    return true;
  } catch {
    toast({ title: 'Could not copy', description: 'Select the text and copy it by hand.', variant: 'destructive' });
    return false;
  }
}

/**
 * The one-time temporary password: the server never shows it again, so the dialog says so
 * and offers a copy button. Closing it forgets the password.
 */
export function UserTempPasswordDialog({
  shown,
  onClose,
}: {
  shown: TemporaryPasswordShown | null;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{shown?.title}</DialogTitle>
          <DialogDescription>
            Give {shown?.name} (username <strong>{shown?.username}</strong>) this temporary password. They must choose a
            new one when they sign in.
          </DialogDescription>
        </DialogHeader>
        {shown && (
          <div className="flex flex-col gap-4">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="temporary-password">Temporary password</Label>
              <div className="flex gap-2">
                <Input
                  id="temporary-password"
                  readOnly
                  value={shown.password}
                  className="font-mono"
                  data-testid="temporary-password"
                  onFocus={(event) => event.currentTarget.select()}
                />
                <Button
                  variant="outline"
                  onClick={() => void copyText(shown.password, 'Temporary password').then(setCopied)}
                  aria-label="Copy the temporary password"
                >
                  {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              </div>
            </div>
            <Alert variant="warning">
              <KeyRound aria-hidden="true" />
              <span>
                Shown only now. It works once, only to set a new password, and expires{' '}
                {formatDateTime(shown.expiresAt) ?? 'in 72 hours'}.
              </span>
            </Alert>
            <div className="flex justify-end">
              <Button onClick={close}>Done</Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
