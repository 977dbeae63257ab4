import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { REQUEST_STATUS_LABELS } from '@outlay/contracts/requests';
import { Input } from '@/components/ui/input';
import { messageOf } from '@/lib/api-error';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useRequestLookup } from '../api/routing';

/** Find a request by reference, title or id among those the caller can see. */
export function RequestLookup({
  selectedId,
  onSelect,
  withScope,
}: {
  selectedId: string | null;
  onSelect: (id: string) => void;
  withScope: boolean;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTerm(text), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const lookup = useRequestLookup(term, withScope);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(term.trim());

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Find a request
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          id={id}
          type="search"
          className="pl-9"
          placeholder="Reference (REQ-000123), title or id…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (uuid) onSelect(term.trim());
              else if (lookup.items[0]) onSelect(lookup.items[0].id);
            }
          }}
          aria-describedby={`${id}-hint`}
        />
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {withScope ? 'Your own requests and those in your scope.' : 'Your own requests and those you approve.'} Press
        Enter to open the first match.
      </p>
      {lookup.error && <p className="text-sm text-destructive">{messageOf(lookup.error, 'The search failed.')}</p>}
      <ul
        className="flex max-h-80 flex-col gap-1 overflow-y-auto"
        aria-label="Matching requests"
        aria-busy={lookup.isFetching || undefined}
      >
        {uuid && !lookup.items.some((r) => r.id === term.trim()) && (
          <li>
            <button
              type="button"
              className="w-full rounded-md border px-3 py-2 text-left text-sm hover:bg-accent"
              onClick={() => onSelect(term.trim())}
            >
              Open request id {term.trim()}
            </button>
          </li>
        )}
        {lookup.items.map((r) => (
          <li key={r.id}>
            <button
              type="button"
              aria-current={r.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(r.id)}
              className={cn(
                'flex w-full flex-col rounded-md border px-3 py-2 text-left text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
                r.id === selectedId && 'border-primary bg-secondary',
              )}
            >
              <span className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono text-xs text-muted-foreground">{r.reference}</span>
                <span className="text-xs text-muted-foreground">{REQUEST_STATUS_LABELS[r.status]}</span>
              </span>
              <span className="font-medium">{r.title}</span>
              <span className="text-xs text-muted-foreground">
                {r.requester.name} · {formatMoney(r.amount, r.currency)}
              </span>
            </button>
          </li>
        ))}
        {!lookup.isLoading && lookup.items.length === 0 && !uuid && (
          <li className="px-1 text-sm text-muted-foreground">No requests match.</li>
        )}
      </ul>
    </div>
  );
}
