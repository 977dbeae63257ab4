import { useState } from 'react';
import { Info } from 'lucide-react';
import type { DigestFrequency, NotificationPreferences } from '@outlay/contracts/notifications';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Checkbox } from '@/components/form/checkbox';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { usePreferences, useSavePreferences } from '../api/preferences';

type Row = NotificationPreferences['preferences'][number];

const DIGEST_LABELS: Record<DigestFrequency, string> = { off: 'Off', daily: 'Daily', weekly: 'Weekly' };

export default function NotificationSettingsPage() {
  const query = usePreferences();
  return (
    <QueryState
      query={query}
      loadingLabel="Loading your settings"
      errorMessage="Could not load your settings."
      className="p-10"
    >
      {(data) => <NotificationSettingsForm data={data} />}
    </QueryState>
  );
}

function NotificationSettingsForm({ data }: { data: NotificationPreferences }) {
  const save = useSavePreferences();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [digest, setDigest] = useState<DigestFrequency>('off');

  // The editable copy starts again from each new server answer (adjusted during render).
  const [loaded, setLoaded] = useState<NotificationPreferences | undefined>(undefined);
  if (data !== loaded) {
    setLoaded(data);
    setRows(data.preferences);
    setDigest(data.digest);
  }

  const dirty =
    rows !== null &&
    (digest !== data.digest ||
      rows.some((r, i) => r.inApp !== data.preferences[i]?.inApp || r.email !== data.preferences[i]?.email));

  const toggle = (eventType: string, channel: 'inApp' | 'email', value: boolean) =>
    setRows((current) => current?.map((r) => (r.eventType === eventType ? { ...r, [channel]: value } : r)) ?? null);

  const discard = () => {
    setRows(data.preferences);
    setDigest(data.digest);
  };

  const submit = () => {
    if (!rows) return;
    save.mutate(
      { preferences: rows.map(({ eventType, inApp, email }) => ({ eventType, inApp, email })), digest },
      {
        onSuccess: () => toast({ variant: 'success', title: 'Notification settings saved' }),
        onError: (e) =>
          toast({ variant: 'destructive', title: 'Could not save your settings', description: e.message }),
      },
    );
  };

  const groups = [...new Set((rows ?? []).map((r) => r.group))];
  const emailNote = !data.emailEnabled
    ? 'E-mail is not set up on this server: your e-mail choices are kept and apply once it is.'
    : data.emailAddress
      ? `E-mail goes to ${data.emailAddress}.`
      : 'Your account has no e-mail address.';

  return (
    <form
      className="mx-auto max-w-3xl"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <PageHeader
        title="Notification Settings"
        description="Choose how you hear about each event."
        actions={
          <Button type="submit" disabled={!dirty || save.isPending}>
            {save.isPending && <Spinner />}
            Save
          </Button>
        }
      />

      <p className="mb-4 flex items-start gap-2 rounded-md border bg-card px-3 py-2 text-sm text-muted-foreground">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {emailNote}
      </p>

      <div className="relative overflow-x-auto rounded-lg border bg-card">
        <table className="w-full text-sm">
          <caption className="sr-only">Channels per event</caption>
          <thead className="border-b bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Event
              </th>
              <th scope="col" className="w-20 px-2 py-2 text-center font-medium">
                In-app
              </th>
              <th scope="col" className="w-20 px-2 py-2 text-center font-medium">
                E-mail
              </th>
            </tr>
          </thead>
          {groups.map((group) => (
            <tbody key={group} className="divide-y border-b last:border-b-0">
              <tr className="bg-slate-50/60">
                <th scope="colgroup" colSpan={3} className="px-4 py-1.5 text-left text-xs font-semibold text-slate-700">
                  {group}
                </th>
              </tr>
              {(rows ?? [])
                .filter((r) => r.group === group)
                .map((r) => (
                  <tr key={r.eventType} data-testid={`pref-${r.eventType}`}>
                    <th scope="row" className="px-4 py-2 text-left font-normal">
                      <span className="block font-medium text-foreground">{r.label}</span>
                      <span className="block text-xs text-muted-foreground">{r.description}</span>
                    </th>
                    <td className="px-2 py-1 text-center">
                      {/* The whole cell-sized label toggles: a finger-sized target around a 16 px box. */}
                      <label className="inline-flex size-10 cursor-pointer items-center justify-center rounded-md hover:bg-slate-100">
                        <Checkbox
                          checked={r.inApp}
                          onCheckedChange={(v) => toggle(r.eventType, 'inApp', v)}
                          aria-label={`${r.label}: in-app`}
                        />
                      </label>
                    </td>
                    <td className="px-2 py-1 text-center">
                      {/* The whole cell-sized label toggles: a finger-sized target around a 16 px box. */}
                      <label className="inline-flex size-10 cursor-pointer items-center justify-center rounded-md hover:bg-slate-100">
                        <Checkbox
                          checked={r.email}
                          onCheckedChange={(v) => toggle(r.eventType, 'email', v)}
                          aria-label={`${r.label}: e-mail`}
                        />
                      </label>
                    </td>
                  </tr>
                ))}
            </tbody>
          ))}
        </table>
      </div>

      <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <Label htmlFor="digest">E-mail digest</Label>
          <p className="text-sm text-muted-foreground">A summary of your unread notifications.</p>
        </div>
        <Select value={digest} onValueChange={(v) => setDigest(v as DigestFrequency)}>
          <SelectTrigger id="digest" className="w-full sm:w-44" aria-label="E-mail digest">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(DIGEST_LABELS) as DigestFrequency[]).map((d) => (
              <SelectItem key={d} value={d}>
                {DIGEST_LABELS[d]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {/* Changes far from the header's Save button (the digest, the last rows) can be saved where they are. */}
      {dirty && (
        <div
          className="sticky bottom-20 z-30 mt-6 flex flex-col gap-2 rounded-lg border bg-card p-3 shadow-lg sm:flex-row sm:items-center sm:justify-between lg:bottom-4"
          data-testid="unsaved-bar"
        >
          <p className="text-sm text-foreground" role="status">
            You have unsaved changes.
          </p>
          <div className="flex gap-2">
            <Button
              type="button"
              variant="outline"
              className="flex-1 sm:flex-none"
              onClick={discard}
              disabled={save.isPending}
            >
              Discard
            </Button>
            <Button type="submit" className="flex-1 sm:flex-none" disabled={save.isPending}>
              {save.isPending && <Spinner />}
              Save changes
            </Button>
          </div>
        </div>
      )}
    </form>
  );
}
