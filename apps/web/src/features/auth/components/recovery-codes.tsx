import { Copy, Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

/** Shown once, right after 2FA is enabled: the server never returns these codes again. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([`Outlay recovery codes\n\n${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'outlay-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="flex flex-col gap-3">
      <ul
        className="grid grid-cols-2 gap-2 rounded-lg border bg-muted p-4 font-mono text-sm"
        aria-label="Recovery codes"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} className="rounded bg-card px-2 py-1.5 text-center tracking-wider">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={copy}>
          <Copy aria-hidden="true" /> {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" /> Download
        </Button>
      </div>
    </div>
  );
}
