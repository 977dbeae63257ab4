import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Mic, MicOff, Sparkles } from 'lucide-react';
import type { ParsedExpense } from '@outlay/contracts/ai';
import { PageHeader } from '@/components/page-header';
import { QueryError, QueryState } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { messageOf } from '@/lib/api-error';
import { formatMoney } from '@/lib/format';
import { useRequestOptions, useVendorOptions, createRequest } from '@/features/requests';
import { useParseExpense } from '../api/parse-expense';

// The browser's speech recognition (Chrome and Safari name it with a prefix); typed text works everywhere.
interface Recognition {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}
type RecognitionCtor = new () => Recognition;

function recognitionCtor(): RecognitionCtor | null {
  const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

function todayIso(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

interface Draft {
  title: string;
  amount: string;
  currency: string;
  expenseDate: string;
  categoryId: string;
  vendorId: string;
}

function draftOf(p: ParsedExpense): Draft {
  return {
    title: p.description,
    amount: p.amount ?? '',
    currency: p.currency,
    expenseDate: p.date,
    categoryId: p.category?.id ?? '',
    vendorId: p.vendor?.id ?? '',
  };
}

const selectClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

export default function VoiceToExpensePage() {
  const id = useId();
  const [text, setText] = useState('');
  const [listening, setListening] = useState(false);
  const [speechError, setSpeechError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; reference: string } | null>(null);
  const recognition = useRef<Recognition | null>(null);
  const Ctor = typeof window === 'undefined' ? null : recognitionCtor();
  const parse = useParseExpense();
  const options = useRequestOptions();
  const vendors = useVendorOptions('');

  useEffect(() => () => recognition.current?.stop(), []);

  const read = (sentence: string) => {
    if (!sentence.trim()) return;
    setCreated(null);
    parse.mutate({ text: sentence.trim(), today: todayIso() }, { onSuccess: (p) => setDraft(draftOf(p)) });
  };

  const listen = () => {
    if (!Ctor) return;
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const r = new Ctor();
    r.lang = navigator.language || 'en-US';
    r.interimResults = false;
    r.continuous = false;
    r.onresult = (e) => {
      const heard = Array.from(e.results)
        .map((res) => res[0]?.transcript ?? '')
        .join(' ')
        .trim();
      setText(heard);
      read(heard);
    };
    r.onerror = (e) =>
      setSpeechError(
        e.error === 'not-allowed'
          ? 'The microphone is blocked for this site: allow it in the browser, or type the sentence.'
          : 'Nothing was understood: try again or type the sentence.',
      );
    r.onend = () => setListening(false);
    recognition.current = r;
    setSpeechError(null);
    setListening(true);
    r.start();
  };

  const submitText = (e: FormEvent) => {
    e.preventDefault();
    read(text);
  };

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setCreating(true);
    setCreateError(null);
    try {
      const r = await createRequest(
        {
          title: draft.title,
          amount: draft.amount,
          currency: draft.currency,
          categoryId: draft.categoryId,
          vendorId: draft.vendorId || null,
          expenseDate: draft.expenseDate || null,
          kind: 'purchase',
          recurrence: 'none',
          lineItems: [],
          allocations: [],
        },
        crypto.randomUUID(),
      );
      setCreated({ id: r.id, reference: r.reference });
      setDraft(null);
      setText('');
      parse.reset();
    } catch (err) {
      setCreateError(messageOf(err, 'The request could not be created'));
    } finally {
      setCreating(false);
    }
  };

  const set = (field: keyof Draft) => (value: string) => setDraft((d) => (d ? { ...d, [field]: value } : d));

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Voice to Expense"
        description="Say or type what you spent; check the draft and create the request."
      />

      <Card>
        <CardHeader>
          <CardTitle>What did you spend?</CardTitle>
          <CardDescription>For example: “taxi to the airport 45 dollars yesterday, client visit”.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submitText} className="flex flex-col gap-3">
            <Label htmlFor={`${id}-text`}>Sentence</Label>
            <Textarea
              id={`${id}-text`}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  read(text);
                }
              }}
              rows={3}
              maxLength={500}
              placeholder="lunch with the team 86.40 last Friday"
            />
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" disabled={!text.trim() || parse.isPending}>
                <Sparkles aria-hidden="true" className="mr-2 h-4 w-4" />
                {parse.isPending ? 'Reading…' : 'Read the sentence'}
              </Button>
              <Button
                type="button"
                variant="outline"
                onClick={listen}
                disabled={!Ctor}
                aria-pressed={listening}
                aria-describedby={Ctor ? undefined : `${id}-nomic`}
              >
                {listening ? (
                  <MicOff aria-hidden="true" className="mr-2 h-4 w-4" />
                ) : (
                  <Mic aria-hidden="true" className="mr-2 h-4 w-4" />
                )}
                {listening ? 'Stop listening' : 'Speak'}
              </Button>
              {!Ctor && (
                <span id={`${id}-nomic`} className="text-sm text-muted-foreground">
                  This browser has no speech recognition: type the sentence instead.
                </span>
              )}
              {listening && (
                <span role="status" className="text-sm text-muted-foreground">
                  Listening…
                </span>
              )}
            </div>
            {speechError && <Alert variant="danger">{speechError}</Alert>}
            {parse.isError && <QueryError error={parse.error} message="The sentence could not be read" compact />}
          </form>
        </CardContent>
      </Card>

      {created && (
        <Alert className="mt-4" role="status">
          Draft request {created.reference} created.{' '}
          <Link className="font-medium underline" to={`/requests?id=${created.id}`}>
            Open it to submit
          </Link>
        </Alert>
      )}

      {draft && (
        <Card className="mt-4">
          <CardHeader>
            <CardTitle>Draft to check</CardTitle>
            <CardDescription>Everything can be changed before the request is created.</CardDescription>
          </CardHeader>
          <CardContent>
            <QueryState query={options} loadingLabel="Loading the form" errorMessage="The form could not be loaded">
              {(o) => (
                <form onSubmit={create} className="grid gap-4 sm:grid-cols-2" aria-label="Draft request">
                  <div className="flex flex-col gap-1.5 sm:col-span-2">
                    <Label htmlFor={`${id}-title`}>Title</Label>
                    <Input
                      id={`${id}-title`}
                      value={draft.title}
                      onChange={(e) => set('title')(e.target.value)}
                      required
                      minLength={3}
                      maxLength={200}
                    />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`${id}-amount`}>Amount</Label>
                    <Input
                      id={`${id}-amount`}
                      inputMode="decimal"
                      value={draft.amount}
                      onChange={(e) => set('amount')(e.target.value)}
                      required
                    />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`${id}-currency`}>Currency</Label>
                    <select
                      id={`${id}-currency`}
                      className={selectClass}
                      value={draft.currency}
                      onChange={(e) => set('currency')(e.target.value)}
                    >
                      {[...new Set([draft.currency, ...o.currencies])].map((c) => (
                        <option key={c} value={c}>
                          {c}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`${id}-date`}>Date</Label>
                    <Input
                      id={`${id}-date`}
                      type="date"
                      value={draft.expenseDate}
                      onChange={(e) => set('expenseDate')(e.target.value)}
                    />
                  </div>
                  <div className="flex flex-col gap-1.5">
                    <Label htmlFor={`${id}-category`}>Category</Label>
                    <select
                      id={`${id}-category`}
                      className={selectClass}
                      value={draft.categoryId}
                      onChange={(e) => set('categoryId')(e.target.value)}
                      required
                    >
                      <option value="">Choose a category</option>
                      {o.categories.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="flex flex-col gap-1.5 sm:col-span-2">
                    <Label htmlFor={`${id}-vendor`}>Vendor</Label>
                    <select
                      id={`${id}-vendor`}
                      className={selectClass}
                      value={draft.vendorId}
                      onChange={(e) => set('vendorId')(e.target.value)}
                    >
                      <option value="">No vendor</option>
                      {[
                        ...(parse.data?.vendor && !vendors.data?.items.some((v) => v.id === parse.data.vendor?.id)
                          ? [{ ...parse.data.vendor, blocked: false }]
                          : []),
                        ...(vendors.data?.items ?? []),
                      ]
                        .filter((v) => !v.blocked)
                        .map((v) => (
                          <option key={v.id} value={v.id}>
                            {v.name}
                          </option>
                        ))}
                    </select>
                  </div>
                  {draft.amount && /^\d+(\.\d+)?$/.test(draft.amount) && (
                    <p className="text-sm text-muted-foreground sm:col-span-2">
                      {formatMoney(draft.amount, draft.currency)} for {o.organization.name}
                    </p>
                  )}
                  {createError && (
                    <Alert variant="danger" className="sm:col-span-2">
                      {createError}
                    </Alert>
                  )}
                  <div className="flex flex-wrap gap-2 sm:col-span-2">
                    <Button type="submit" disabled={creating}>
                      {creating ? 'Creating…' : 'Create draft request'}
                    </Button>
                    <Button type="button" variant="outline" onClick={() => setDraft(null)}>
                      Discard
                    </Button>
                  </div>
                </form>
              )}
            </QueryState>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
