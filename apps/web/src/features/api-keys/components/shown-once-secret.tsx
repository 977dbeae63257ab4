import { Check, Copy } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * A secret the server returns once and keeps only a hash or sealed copy of (an API key, a
 * webhook's signing secret): shown with a copy button and a warning until the person says
 * they have saved it. It lives in this page's memory only.
 */
export function ShownOnceSecret({
  label,
  value,
  testId,
  copyLabel,
  children,
  onDone,
}: {
  label: ReactNode;
  value: string;
  testId: string;
  copyLabel: string;
  /** What the warning says after "Shown once.". */
  children: ReactNode;
  onDone: () => void;
}) {
  const labelId = useId();
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('ok');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-300 p-3">
      <span className="text-sm font-medium" id={labelId}>
        {label}
      </span>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
        <code
          aria-labelledby={labelId}
          data-testid={testId}
          className="min-w-0 flex-1 break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm select-all"
        >
          {value}
        </code>
        <Button type="button" variant="outline" onClick={() => void copy()}>
          {copied === 'ok' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied === 'ok' ? 'Copied' : copyLabel}
        </Button>
      </div>
      <p aria-live="polite" className="min-h-5 text-xs text-muted-foreground">
        {copied === 'ok'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Could not copy: select it and copy it by hand.'
            : ''}
      </p>
      <Alert variant="warning">
        <span>
          <strong>Shown once.</strong> {children}
        </span>
      </Alert>
      <div>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          I have saved it
        </Button>
      </div>
    </div>
  );
}
