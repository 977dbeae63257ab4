import { FlaskConical } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { PolicyRule } from '@outlay/contracts/policies';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { messageOf } from '@/lib/api-error';
import { formatMoney, formatNumber, plural } from '@/lib/format';
import { useSimulatePolicy } from '../api/policies';
import { SelectField, TextField } from '@/components/form';

/** "Would have flagged 37 of 1,204": a saved rule against the requests of the last N months. */
export function SimulationPanel({
  rules,
  ruleId,
  onRuleChange,
}: {
  rules: readonly PolicyRule[];
  ruleId: string;
  onRuleChange: (id: string) => void;
}) {
  const [months, setMonths] = useState('6');
  const simulate = useSimulatePolicy();
  const result = simulate.data;
  const run = (event: FormEvent) => {
    event.preventDefault();
    if (!ruleId) return;
    simulate.mutate({ ruleId, months: Math.min(36, Math.max(1, Number(months) || 6)) });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FlaskConical className="size-5" aria-hidden="true" />
          Simulation
        </CardTitle>
        <CardDescription>
          Run a rule (active or not) against the requests submitted over the last months. Nothing is changed.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form
          className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
          onSubmit={run}
          aria-label="Simulate a rule"
        >
          <SelectField
            label="Rule to simulate"
            value={ruleId}
            placeholder="Choose a rule"
            options={rules.map((r) => ({ value: r.id, label: `${r.name} (v${r.version})` }))}
            onChange={onRuleChange}
          />
          <TextField label="Last N months" value={months} inputMode="numeric" onChange={setMonths} />
          <Button type="submit" disabled={!ruleId || simulate.isPending}>
            {simulate.isPending ? 'Running…' : 'Run simulation'}
          </Button>
        </form>
        {simulate.isError && (
          <Alert variant="danger" role="alert">
            {messageOf(simulate.error, 'The simulation failed. Try again.')}
          </Alert>
        )}
        {result && (
          <div className="flex flex-col gap-3" aria-live="polite">
            <p className="text-lg font-semibold" data-testid="simulation-summary">
              Would have flagged {formatNumber(result.flagged)} of {plural(result.evaluated, 'request')} in the last{' '}
              {plural(result.months, 'month')}
            </p>
            <p className="text-sm text-muted-foreground">
              Warn {formatNumber(result.byAction.warn)} · Needs justification {formatNumber(result.byAction.justify)} ·
              Blocked {formatNumber(result.byAction.block)}
            </p>
            {result.examples.length > 0 && (
              <div className="relative overflow-x-auto">
                <table className="w-full text-sm">
                  <caption className="sr-only">Examples of flagged requests</caption>
                  <thead>
                    <tr className="border-b text-left text-muted-foreground">
                      <th scope="col" className="py-2 pr-3 font-medium">
                        Request
                      </th>
                      <th scope="col" className="py-2 pr-3 font-medium">
                        Title
                      </th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">
                        Amount
                      </th>
                      <th scope="col" className="py-2 font-medium">
                        Finding
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.examples.map((e) => (
                      <tr key={e.requestId} className="border-b last:border-0 align-top">
                        <td className="py-2 pr-3 font-mono text-xs whitespace-nowrap">{e.reference}</td>
                        <td className="py-2 pr-3">{e.title}</td>
                        <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                          {formatMoney(e.amount, e.currency)}
                        </td>
                        <td className="py-2">{e.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
