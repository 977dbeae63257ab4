import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Send } from 'lucide-react';
import {
  COPILOT_CONTEXT_MAX,
  COPILOT_QUESTION_KINDS,
  type CopilotAnswer as CopilotAnswerData,
} from '@outlay/contracts/ai';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useAuth } from '@/lib/current-user';
import { useAskCopilot } from '../api/ask-copilot';
import { CopilotAnswer } from '../components/copilot-answer';

interface Turn {
  question: string;
  answer: CopilotAnswerData;
}

// The conversation lives in this tab only (sessionStorage), under the person's name: a reload
// keeps it, closing the tab ends it, and someone else signing in on this tab never sees it.
const historyKey = (username: string) => `outlay.copilot.conversation.${username}`;

function storedTurns(key: string): Turn[] {
  try {
    const raw = sessionStorage.getItem(key);
    const turns = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(turns)
      ? (turns as Turn[]).filter((t) => typeof t?.question === 'string' && typeof t?.answer?.answer === 'string')
      : [];
  } catch {
    return [];
  }
}

export default function ExecutiveAiCopilotPage() {
  const id = useId();
  const [question, setQuestion] = useState('');
  const { user } = useAuth();
  const key = historyKey(user?.username ?? '');
  const [turns, setTurns] = useState<Turn[]>(() => storedTurns(key));

  useEffect(() => {
    try {
      if (turns.length) sessionStorage.setItem(key, JSON.stringify(turns.slice(-30)));
      else sessionStorage.removeItem(key);
    } catch {
      // A full or blocked storage only loses the history across reloads.
    }
  }, [turns, key]);
  const ask = useAskCopilot();
  const input = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [turns.length, ask.isPending]);

  const send = (q: string) => {
    const text = q.trim();
    if (!text || ask.isPending) return;
    // The earlier questions travel with each one, so a follow-up ("and last quarter?") keeps their context.
    const context = turns.map((t) => t.question).slice(-COPILOT_CONTEXT_MAX);
    ask.mutate(
      { question: text, context },
      {
        onSuccess: (answer) => {
          setTurns((all) => [...all, { question: text, answer }]);
          setQuestion('');
          input.current?.focus();
        },
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(question);
  };

  return (
    <div className="mx-auto flex max-w-4xl flex-col">
      <PageHeader
        title="AI Copilot"
        description="Ask about spend, budgets, approvals, payroll and cycle times. Answers use the live data you may see."
        actions={
          turns.length > 0 ? (
            <Button variant="outline" onClick={() => setTurns([])}>
              New conversation
            </Button>
          ) : undefined
        }
      />

      <section aria-label="Conversation" aria-live="polite" className="flex flex-col gap-4">
        {turns.length === 0 && (
          <Card>
            <CardContent className="pt-6">
              <h2 className="mb-3 text-sm font-medium">Try one of these</h2>
              <ul className="flex flex-wrap gap-2">
                {COPILOT_QUESTION_KINDS.map((k) => (
                  <li key={k.kind}>
                    <Button
                      variant="outline"
                      size="sm"
                      className="h-auto whitespace-normal text-left"
                      onClick={() => send(k.example)}
                      disabled={ask.isPending}
                    >
                      {k.example}
                    </Button>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        )}
        {turns.map((t, i) => (
          <article key={i} className="flex flex-col gap-2" aria-label={`Question ${i + 1}`}>
            <p className="ml-auto max-w-[85%] rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground">
              {t.question}
            </p>
            <Card className="max-w-full">
              <CardContent className="pt-4">
                <CopilotAnswer answer={t.answer} />
              </CardContent>
            </Card>
          </article>
        ))}
        {ask.isPending && (
          <p role="status" className="text-sm text-muted-foreground">
            Working out the answer…
          </p>
        )}
        {ask.isError && <QueryError error={ask.error} message="The question could not be answered" compact />}
        <div ref={end} />
      </section>

      <form onSubmit={submit} className="sticky bottom-0 mt-4 flex flex-col gap-1.5 border-t bg-background py-3">
        <Label htmlFor={`${id}-q`}>Your question</Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-q`}
            ref={input}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            maxLength={500}
            placeholder="Which budgets are above 90%?"
            autoComplete="off"
          />
          <Button type="submit" disabled={!question.trim() || ask.isPending}>
            <Send aria-hidden="true" className="h-4 w-4 sm:mr-2" />
            <span className="sr-only sm:not-sr-only">Ask</span>
          </Button>
        </div>
      </form>
    </div>
  );
}
