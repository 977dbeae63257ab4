import { ArrowLeft, ArrowRight, Check, ExternalLink, Lock } from 'lucide-react';
import { useMemo, useEffect, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { findRoute, mayOpen } from '@/lib/route-catalogue';
import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useAuth } from '@/lib/current-user';
import {
  CoachingDemoStep,
  CopilotDemoStep,
  FindingsDemoStep,
  ForecastsDemoStep,
  ReceiptDemoStep,
  SearchDemoStep,
  SentenceDemoStep,
  SmartFormDemoStep,
  type DemoStepProps,
} from '../components/demo-steps';

interface TourStep {
  key: string;
  title: string;
  /** The feature's own screen: its route's permission decides whether the caller may run the step. */
  path: string;
  what: string;
  Body: ComponentType<DemoStepProps>;
}

const STEPS: TourStep[] = [
  {
    key: 'receipt',
    title: 'Receipt reading',
    path: '/receipt-photo-ai',
    what: 'A photographed receipt is read on the server (OCR, no network): merchant, date, total, tax and currency, each with how sure the reader is.',
    Body: ReceiptDemoStep,
  },
  {
    key: 'sentence',
    title: 'Spoken or typed entry',
    path: '/voice-to-expense',
    what: 'A sentence, spoken or typed, becomes a draft request: amount, currency, date, category and vendor.',
    Body: SentenceDemoStep,
  },
  {
    key: 'copilot',
    title: 'Copilot',
    path: '/executive-ai-copilot',
    what: 'A question in plain words is answered from the same figures as the screens, with a table and links to the records.',
    Body: CopilotDemoStep,
  },
  {
    key: 'search',
    title: 'Search',
    path: '/ai-search',
    what: 'One box searches requests, vendors, people, budgets, policies and tutorials, typos forgiven, ranked by relevance.',
    Body: SearchDemoStep,
  },
  {
    key: 'smart-form',
    title: 'Smart form suggestions',
    path: '/smart-form',
    what: "While a description is typed, the category, vendor and department are suggested from the organization's past requests.",
    Body: SmartFormDemoStep,
  },
  {
    key: 'findings',
    title: 'Findings',
    path: '/smart-analytics',
    what: 'Unusual amounts, likely duplicates, split purchases, odd timing and Benford deviations, found in the history.',
    Body: FindingsDemoStep,
  },
  {
    key: 'forecasts',
    title: 'Forecasts',
    path: '/predictive-budgeting',
    what: 'Each budget line forecast to the end of its period, with a confidence band and the day it would run over.',
    Body: ForecastsDemoStep,
  },
  {
    key: 'coaching',
    title: 'Coaching',
    path: '/expense-coaching',
    what: 'Your own requests looked at for what gets flagged or sent back, with tips drawn from the policies.',
    Body: CoachingDemoStep,
  },
];

/**
 * /advanced-ai-demo: a guided tour that runs each AI feature on inputs shipped with the app,
 * through the features' own endpoints, so what it shows is what the feature really answers.
 */
export default function AdvancedAiDemoPage() {
  const { user } = useAuth();
  const permissions = user?.permissions ?? [];
  const [current, setCurrent] = useState(0);
  const [done, setDone] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const stepButtons = useRef<(HTMLButtonElement | null)[]>([]);

  // Focus follows a move (not the first render), so a keyboard or screen-reader user lands on the new step.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [current]);

  const go = (index: number) => {
    moved.current = true;
    setCurrent(Math.max(0, Math.min(STEPS.length - 1, index)));
  };

  const markDone = useMemo(
    () =>
      Object.fromEntries(
        STEPS.map((s) => [s.key, () => setDone((all) => (all.has(s.key) ? all : new Set(all).add(s.key)))]),
      ) as Record<string, () => void>,
    [],
  );

  // Arrow keys move along the list of steps, as in a tab list.
  const onStepKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? STEPS.length - 1
              : null;
    if (next === null || next < 0 || next >= STEPS.length) return;
    event.preventDefault();
    stepButtons.current[next]?.focus();
  };

  const step = STEPS[current]!;
  const progress = Math.round(((current + 1) / STEPS.length) * 100);

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4">
      <PageHeader
        title="Advanced AI Demo"
        description="A guided tour: each step runs one AI feature on a sample shipped with the app and shows what the server really answers. Everything runs on the server, with no network."
      />

      <nav aria-label="Tour steps">
        <ol className="grid grid-cols-4 gap-1.5 sm:grid-cols-8">
          {STEPS.map((s, i) => {
            const isCurrent = i === current;
            return (
              <li key={s.key} className="min-w-0">
                <button
                  ref={(el) => {
                    stepButtons.current[i] = el;
                  }}
                  type="button"
                  onClick={() => go(i)}
                  onKeyDown={(e) => onStepKey(e, i)}
                  aria-current={isCurrent ? 'step' : undefined}
                  aria-label={`Step ${i + 1}: ${s.title}${done.has(s.key) ? ' (run)' : ''}`}
                  className={cn(
                    'flex h-full w-full min-w-0 flex-col items-center gap-1 rounded-md border px-1 py-2 text-center text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    isCurrent ? 'border-primary bg-primary/10 font-semibold' : 'hover:bg-muted',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'flex size-6 items-center justify-center rounded-full border text-xs',
                      done.has(s.key)
                        ? 'border-emerald-600 bg-emerald-600 text-white'
                        : isCurrent
                          ? 'border-primary text-primary'
                          : '',
                    )}
                  >
                    {done.has(s.key) ? <Check className="size-3.5" /> : i + 1}
                  </span>
                  {/* A word break between the number and the title, as the name reads them ("2 Spoken…"). */}{' '}
                  <span aria-hidden="true" className="line-clamp-2 break-words">
                    {s.title}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="flex flex-col gap-1.5">
        <div className="flex justify-between text-xs text-muted-foreground">
          <span>
            Step {formatNumber(current + 1)} of {formatNumber(STEPS.length)}
          </span>
          <span>
            {formatNumber(done.size)} of {formatNumber(STEPS.length)} run
          </span>
        </div>
        <div
          role="progressbar"
          aria-label="Tour progress"
          aria-valuemin={1}
          aria-valuemax={STEPS.length}
          aria-valuenow={current + 1}
          aria-valuetext={`Step ${current + 1} of ${STEPS.length}: ${step.title}`}
          className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${progress}%` }} />
        </div>
      </div>

      {STEPS.map((s, i) => {
        const route = findRoute(s.path);
        const allowed = !!user && !!route && mayOpen(route, permissions);
        return (
          // Every step stays mounted, so its result is still there after going back to it.
          <Card key={s.key} hidden={i !== current} data-testid={`demo-step-${s.key}`}>
            <CardContent className="flex flex-col gap-4 pt-6">
              <div className="flex flex-col gap-1">
                <h2
                  ref={i === current ? heading : undefined}
                  tabIndex={-1}
                  className="text-lg font-semibold outline-none"
                >
                  {i + 1}. {s.title}
                </h2>
                <p className="text-sm text-muted-foreground">{s.what}</p>
              </div>
              {allowed ? (
                <s.Body onDone={markDone[s.key]!} />
              ) : (
                <Alert variant="info" data-testid="demo-step-not-allowed">
                  <Lock aria-hidden="true" />
                  <span>
                    Your role does not include {route?.title ?? s.title}
                    {route?.permission ? ` (it needs the “${route.permission}” permission)` : ''}, so this step is only
                    described here. An administrator can give it to you.
                  </span>
                </Alert>
              )}
              {allowed && route && (
                <Link
                  to={route.path}
                  className="inline-flex items-center gap-1.5 self-start text-sm font-medium text-primary underline underline-offset-2"
                >
                  Open the full screen: {route.title}
                  <ExternalLink className="size-3.5" aria-hidden="true" />
                </Link>
              )}
            </CardContent>
          </Card>
        );
      })}

      <div className="flex items-center justify-between gap-2">
        <Button type="button" variant="outline" onClick={() => go(current - 1)} disabled={current === 0}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>
        <Button type="button" onClick={() => go(current + 1)} disabled={current === STEPS.length - 1}>
          Next
          <ArrowRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
