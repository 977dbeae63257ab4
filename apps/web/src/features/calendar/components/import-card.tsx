import { CalendarPlus, FileUp, Repeat } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import {
  CALENDAR_IMPORT_ACCEPT,
  CALENDAR_IMPORT_MAX_BYTES,
  CALENDAR_MESSAGES,
  calendarImportInput,
  type CalendarImportEvent,
  type CalendarImportResult,
} from '@outlay/contracts/calendar';
import { Checkbox } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { SelectField, idOptions } from '@/components/select-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { messageOf } from '@/lib/api-error';
import { formatDate, formatDateTime, plural } from '@/lib/format';
import { useRequestOptions } from '@/features/requests';
import { useImportEvents } from '../api/import-calendar-events';
import { usePreviewImport } from '../api/preview-calendar-import';

interface Choice {
  checked: boolean;
  amount: string;
}

function whenOf(e: CalendarImportEvent): string {
  if (e.allDay) {
    // An all-day event's end is the day after its last day.
    const last = e.end ? new Date(Date.parse(`${e.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10) : e.start;
    return last > e.start ? `${formatDate(e.start)} – ${formatDate(last)}` : (formatDate(e.start) ?? e.start);
  }
  return e.end ? `${formatDateTime(e.start)} – ${formatDateTime(e.end)}` : (formatDateTime(e.start) ?? e.start);
}

/** An .ics file's events as draft requests: read, shown, and created only when confirmed. */
export function ImportCard() {
  const inputId = useId();
  const options = useRequestOptions();
  const preview = usePreviewImport();
  const importing = useImportEvents();
  const [content, setContent] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [events, setEvents] = useState<CalendarImportEvent[] | null>(null);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [categoryId, setCategoryId] = useState<string | undefined>(undefined);
  const [currency, setCurrency] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CalendarImportResult['created'] | null>(null);

  const choose = async (file: File | undefined) => {
    setEvents(null);
    setProblem(null);
    setCreated(null);
    setFileError(null);
    setContent(null);
    if (!file) return;
    if (file.size > CALENDAR_IMPORT_MAX_BYTES) {
      setFileError(CALENDAR_MESSAGES.tooLarge);
      return;
    }
    const text = await file.text();
    setContent(text);
    try {
      const result = await preview.mutateAsync({ content: text });
      setEvents(result.events);
      setChoices(Object.fromEntries(result.events.map((e) => [e.key, { checked: true, amount: '' }])));
    } catch (error) {
      setFileError(messageOf(error, 'Could not read this file.'));
    }
  };

  const set = (key: string, change: Partial<Choice>) =>
    setChoices((all) => ({ ...all, [key]: { ...all[key]!, ...change } }));
  const chosen = events?.filter((e) => choices[e.key]?.checked) ?? [];

  const confirm = async (defaults: { categoryId: string; currency: string }) => {
    setProblem(null);
    // The contract's own schema: the same rules the server applies, checked before sending.
    const parsed = calendarImportInput.safeParse({
      content,
      categoryId: categoryId ?? defaults.categoryId,
      currency: currency ?? defaults.currency,
      items: chosen.map((e) => ({ key: e.key, amount: choices[e.key]!.amount.trim() })),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const index = issue.path[0] === 'items' && typeof issue.path[1] === 'number' ? issue.path[1] : null;
      setProblem(index === null ? issue.message : `${chosen[index]?.title}: ${issue.message}`);
      return;
    }
    try {
      const result = await importing.mutateAsync(parsed.data);
      setCreated(result.created);
      setEvents(null);
      setContent(null);
    } catch (error) {
      setProblem(messageOf(error, 'Could not create the drafts.'));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Import events as draft requests</CardTitle>
        <CardDescription>
          Choose an .ics file (a conference, a trip) exported from your calendar. You will see each event first; drafts
          are created only for the events you confirm, with the event’s dates and place in the description. A repeating
          event becomes one draft, for its first occurrence.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <Label htmlFor={inputId}>Calendar file (.ics)</Label>
          <input
            id={inputId}
            type="file"
            accept={CALENDAR_IMPORT_ACCEPT}
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-card file:px-3 file:py-2 file:text-sm file:font-medium"
            aria-describedby={fileError ? `${inputId}-error` : undefined}
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          {preview.isPending && <p className="text-sm text-muted-foreground">Reading the file…</p>}
          {fileError && (
            <p id={`${inputId}-error`} role="alert" className="text-sm text-red-800">
              {fileError}
            </p>
          )}
        </div>

        {created && (
          <Alert variant="success" data-testid="import-result">
            <span>
              Created {plural(created.length, 'draft request')}:{' '}
              {created.map((c) => `${c.reference} ${c.title}`).join(', ')}.{' '}
              <Link to="/requests" className="font-medium underline">
                Open My Requests
              </Link>{' '}
              to complete and submit them.
            </span>
          </Alert>
        )}

        {events && (
          <QueryState
            query={options}
            loadingLabel="Loading categories"
            errorMessage="Could not load the request options."
          >
            {(opts) => {
              const defaults = { categoryId: opts.categories[0]?.id ?? '', currency: opts.organization.currency };
              return (
                <div className="flex flex-col gap-4" data-testid="import-preview">
                  <p className="text-sm">
                    {plural(events.length, 'event')} in the file; {chosen.length} chosen. Nothing has been created yet.
                  </p>
                  <ul className="flex flex-col divide-y rounded-md border">
                    <li
                      className="hidden grid-cols-[1.5rem_minmax(0,1fr)_14rem_9rem] gap-3 bg-muted/50 px-3 py-2 text-xs font-medium text-muted-foreground sm:grid"
                      aria-hidden="true"
                    >
                      <span />
                      <span>Event</span>
                      <span>When</span>
                      <span>Amount</span>
                    </li>
                    {events.map((e) => {
                      const choice = choices[e.key]!;
                      const id = `${inputId}-event-${e.key}`;
                      return (
                        <li
                          key={e.key}
                          className="grid grid-cols-[1.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 px-3 py-3 sm:grid-cols-[1.5rem_minmax(0,1fr)_14rem_9rem] sm:items-center"
                          data-testid="import-event"
                        >
                          <Checkbox
                            id={id}
                            checked={choice.checked}
                            onCheckedChange={(checked) => set(e.key, { checked })}
                            aria-label={`Import ${e.title}`}
                          />
                          <div className="min-w-0">
                            <label htmlFor={id} className="block break-words font-medium">
                              {e.title}
                            </label>
                            {e.location && (
                              <span className="block break-words text-sm text-muted-foreground">{e.location}</span>
                            )}
                            {e.recurring && (
                              <span className="flex items-center gap-1 text-xs text-muted-foreground">
                                <Repeat className="size-3" aria-hidden="true" />
                                Repeats: first occurrence only
                              </span>
                            )}
                          </div>
                          <span className="col-start-2 text-sm text-muted-foreground sm:col-start-auto">
                            {whenOf(e)}
                          </span>
                          <div className="col-start-2 sm:col-start-auto">
                            <Input
                              aria-label={`Amount for ${e.title}`}
                              inputMode="decimal"
                              placeholder="Amount"
                              value={choice.amount}
                              disabled={!choice.checked}
                              onChange={(event) => set(e.key, { amount: event.target.value })}
                            />
                          </div>
                        </li>
                      );
                    })}
                  </ul>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <SelectField
                      id={`${inputId}-category`}
                      label="Category of the drafts"
                      options={idOptions(opts.categories)}
                      value={categoryId ?? defaults.categoryId}
                      onChange={setCategoryId}
                    />
                    <SelectField
                      id={`${inputId}-currency`}
                      label="Currency"
                      options={opts.currencies.map((c) => ({ value: c, label: c }))}
                      value={currency ?? defaults.currency}
                      onChange={setCurrency}
                    />
                  </div>
                  {problem && (
                    <p role="alert" className="text-sm text-red-800">
                      {problem}
                    </p>
                  )}
                  <div className="flex flex-wrap gap-2">
                    <Button
                      disabled={chosen.length === 0 || importing.isPending}
                      onClick={() => void confirm(defaults)}
                    >
                      <CalendarPlus aria-hidden="true" />
                      {importing.isPending ? 'Creating…' : `Create ${plural(chosen.length, 'draft')}`}
                    </Button>
                    <Button
                      variant="outline"
                      onClick={() => {
                        setEvents(null);
                        setContent(null);
                      }}
                    >
                      Cancel
                    </Button>
                  </div>
                </div>
              );
            }}
          </QueryState>
        )}
        {!events && !created && !fileError && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <FileUp className="size-4" aria-hidden="true" />
            No file chosen yet.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
