import { Check, Copy, Link2, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { useCreateFeed } from '../api/create-calendar-feed';
import { useFeedStatus } from '../api/get-calendar-feed';
import { useRevokeFeed } from '../api/revoke-calendar-feed';

const INSTRUCTIONS = [
  {
    app: 'Google Calendar',
    steps:
      'On a computer, open Google Calendar → Other calendars → + → From URL, paste the link and choose Add calendar.',
  },
  {
    app: 'Outlook',
    steps: 'Open Outlook Calendar → Add calendar → Subscribe from web, paste the link, name it and choose Import.',
  },
  {
    app: 'Apple Calendar',
    steps:
      'On a Mac choose File → New Calendar Subscription; on an iPhone, Settings → Calendar → Accounts → Add Subscribed Calendar. Paste the link.',
  },
];

/**
 * The private subscription link. The server keeps only a hash of it, so the full link exists in
 * this page's memory alone, right after it is made; leaving the page forgets it.
 */
export function SubscribeCard() {
  const status = useFeedStatus();
  const create = useCreateFeed();
  const revoke = useRevokeFeed();
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);
  const [confirming, setConfirming] = useState<'regenerate' | 'revoke' | null>(null);

  const make = async () => {
    const created = await create.mutateAsync();
    setLink(`${window.location.origin}${created.path}`);
    setCopied(null);
  };
  const makeFirst = async () => {
    try {
      await make();
    } catch (error) {
      toast({
        title: 'Could not make the link',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      setCopied('ok');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscribe in your calendar</CardTitle>
        <CardDescription>
          A private link to your approval deadlines, payroll dates, budget period ends and your requests’ needed-by
          dates. Calendar apps fetch it without signing in, so treat it like a password.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <QueryState
          query={status}
          loadingLabel="Loading your calendar link"
          errorMessage="Could not load your calendar link."
        >
          {(feed) => (
            <>
              {link ? (
                <div className="flex flex-col gap-2">
                  <span className="text-sm font-medium" id="calendar-link-label">
                    Your subscription link
                  </span>
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
                    <code
                      aria-labelledby="calendar-link-label"
                      data-testid="calendar-link"
                      className="flex min-w-0 flex-1 items-center gap-2 break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm select-all"
                    >
                      <Link2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                      {link}
                    </code>
                    <Button type="button" variant="outline" onClick={() => void copy()}>
                      {copied === 'ok' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                      {copied === 'ok' ? 'Copied' : 'Copy link'}
                    </Button>
                  </div>
                  <p aria-live="polite" className="min-h-5 text-xs text-muted-foreground">
                    {copied === 'ok'
                      ? 'Copied to the clipboard.'
                      : copied === 'failed'
                        ? 'Could not copy: select the link and copy it by hand.'
                        : ''}
                  </p>
                  <Alert variant="warning">
                    <span>
                      <strong>Shown once.</strong> Outlay keeps only a fingerprint of this link, so it cannot show it
                      again. Add it to your calendar now; if you lose it, make a new one.
                    </span>
                  </Alert>
                </div>
              ) : feed.active ? (
                <p className="text-sm" data-testid="calendar-link-state">
                  Your link is active: made {formatDateTime(feed.createdAt)},{' '}
                  {feed.lastFetchedAt ? `last fetched ${formatDateTime(feed.lastFetchedAt)}` : 'not fetched yet'}. For
                  your safety it is shown only when it is made; to add it to another calendar, make a new link (the old
                  one stops working).
                </p>
              ) : (
                <p className="text-sm text-muted-foreground" data-testid="calendar-link-state">
                  You have no calendar link. Make one to see your dates in Google Calendar, Outlook or Apple Calendar.
                </p>
              )}
              <div className="flex flex-wrap gap-2">
                {feed.active || link ? (
                  <>
                    <Button variant="outline" onClick={() => setConfirming('regenerate')}>
                      <RefreshCw aria-hidden="true" />
                      Make a new link
                    </Button>
                    <Button variant="outline" className="text-destructive" onClick={() => setConfirming('revoke')}>
                      <Trash2 aria-hidden="true" />
                      Revoke link
                    </Button>
                  </>
                ) : (
                  <Button onClick={() => void makeFirst()} disabled={create.isPending}>
                    <Link2 aria-hidden="true" />
                    {create.isPending ? 'Making the link…' : 'Make my calendar link'}
                  </Button>
                )}
              </div>
            </>
          )}
        </QueryState>
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">How to subscribe</h3>
          <ul className="flex flex-col gap-2 text-sm">
            {INSTRUCTIONS.map((i) => (
              <li key={i.app}>
                <strong>{i.app}:</strong> <span className="text-muted-foreground">{i.steps}</span>
              </li>
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">
            Calendar apps refresh subscriptions on their own schedule (Google every few hours), so changes can take a
            while to appear.
          </p>
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirming === 'regenerate'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Make a new calendar link?"
        description="Your current link stops working at once: calendars subscribed to it get no more updates until you subscribe them to the new one."
        confirmLabel="Make a new link"
        pendingLabel="Making…"
        onConfirm={async () => {
          await make();
          setConfirming(null);
        }}
      />
      <ConfirmDialog
        open={confirming === 'revoke'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Revoke your calendar link?"
        description="Calendars subscribed to it get nothing more. You can make a new link later."
        confirmLabel="Revoke link"
        pendingLabel="Revoking…"
        onConfirm={async () => {
          await revoke.mutateAsync();
          setLink(null);
          setConfirming(null);
          toast({ title: 'Calendar link revoked', variant: 'success' });
        }}
      />
    </Card>
  );
}
