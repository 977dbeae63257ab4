import { FlaskConical, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { moneyAmount } from '@outlay/contracts/lists';
import { STEP_MODE_LABELS, type SimulationResult, type WorkflowInput } from '@outlay/contracts/workflows';
import { FieldError, FormServerError } from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Checkbox } from '@/components/form';
import { messageOf } from '@/lib/api-error';
import { formatMoney, roleLabel } from '@/lib/format';
import { useSimulateWorkflow } from '../api/workflows';
import { ApproverPicker } from '@/components/approver-picker';

const NONE = '__none';

export interface SimulatePanelProps {
  organizationId: string | null;
  orgCurrency: string;
  categories: readonly { id: string; name: string }[];
  departments: readonly { id: string; name: string }[];
  /** The builder's current state, validated; null (and the form shows why) when it is not valid. */
  getDraft: () => Promise<WorkflowInput | null>;
}

/** Runs a sample request through the engine with the unsaved draft and shows the route. */
export function SimulatePanel({ organizationId, orgCurrency, categories, departments, getDraft }: SimulatePanelProps) {
  const id = useId();
  const simulate = useSimulateWorkflow();
  const [amount, setAmount] = useState('1500.00');
  const [currency, setCurrency] = useState(orgCurrency);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [departmentId, setDepartmentId] = useState<string | null>(null);
  const [requesterId, setRequesterId] = useState<string | null>(null);
  const [overBudget, setOverBudget] = useState(false);
  const [amountError, setAmountError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SimulationResult | null>(null);
  const currencies = Array.from(new Set([orgCurrency, 'USD', 'EUR', 'GBP', 'AED']));

  const run = async () => {
    setError(null);
    const parsedAmount = moneyAmount.safeParse(amount.trim());
    if (!parsedAmount.success) {
      setAmountError('Enter an amount such as 1500.00');
      return;
    }
    setAmountError(null);
    if (!organizationId) {
      setError('Choose the workflow’s organization first.');
      return;
    }
    const draft = await getDraft();
    if (!draft) {
      setError('Fix the highlighted fields of the workflow first; the simulation uses the draft as it is.');
      return;
    }
    try {
      setResult(
        await simulate.mutateAsync({
          organizationId,
          amount: parsedAmount.data,
          currency,
          categoryId,
          departmentId,
          requesterId,
          overBudget,
          workflow: draft,
        }),
      );
    } catch (e) {
      setResult(null);
      setError(messageOf(e, 'The simulation failed.'));
    }
  };

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Simulate</CardTitle>
        <CardDescription>Run a sample request against this draft (nothing is saved).</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid grid-cols-[1fr_6.5rem] gap-2">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-amount`}>Amount</Label>
            <Input
              id={`${id}-amount`}
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={amountError ? true : undefined}
              aria-describedby={amountError ? `${id}-amount-error` : undefined}
              className="tabular-nums"
            />
            {amountError && <FieldError id={`${id}-amount-error`}>{amountError}</FieldError>}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-currency`}>Currency</Label>
            <Select value={currency} onValueChange={setCurrency}>
              <SelectTrigger id={`${id}-currency`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {currencies.map((c) => (
                  <SelectItem key={c} value={c}>
                    {c}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-category`}>Category</Label>
          <Select value={categoryId ?? NONE} onValueChange={(v) => setCategoryId(v === NONE ? null : v)}>
            <SelectTrigger id={`${id}-category`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NONE}>Any category</SelectItem>
              {categories.map((c) => (
                <SelectItem key={c.id} value={c.id}>
                  {c.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-department`}>Department</Label>
          <Select value={departmentId ?? NONE} onValueChange={(v) => setDepartmentId(v === NONE ? null : v)}>
            <SelectTrigger id={`${id}-department`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NONE}>Any department</SelectItem>
              {departments.map((d) => (
                <SelectItem key={d.id} value={d.id}>
                  {d.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-requester`}>Requester</Label>
          <ApproverPicker
            id={`${id}-requester`}
            value={requesterId}
            onChange={(v) => setRequesterId(v)}
            organizationId={organizationId}
            placeholder="Someone in the department"
          />
        </div>
        <div className="flex items-center gap-2 text-sm">
          <Checkbox id={`${id}-over`} checked={overBudget} onCheckedChange={setOverBudget} />
          <label htmlFor={`${id}-over`}>Over budget</label>
        </div>
        <Button onClick={() => void run()} disabled={simulate.isPending}>
          <FlaskConical aria-hidden="true" />
          {simulate.isPending ? 'Simulating…' : 'Run simulation'}
        </Button>
        <FormServerError error={error} />
        {result && <SimulationView result={result} />}
      </CardContent>
    </Card>
  );
}

function SimulationView({ result }: { result: SimulationResult }) {
  return (
    <section aria-label="Simulated route" className="flex flex-col gap-3 border-t pt-3 text-sm" aria-live="polite">
      <p>
        <span className="font-semibold">
          {result.autoApproved
            ? 'Approved automatically'
            : result.matched
              ? `Matches “${result.workflowName}”`
              : 'No workflow matches'}
        </span>
        <span className="text-muted-foreground"> · {formatMoney(result.amountOrg, result.orgCurrency)}</span>
      </p>
      {result.autoApproved && result.autoApprovalRule && (
        <Badge variant="success">Rule: {result.autoApprovalRule}</Badge>
      )}
      {result.reasons.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5 text-muted-foreground">
          {result.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {result.steps.length > 0 && (
        <ol className="flex flex-col gap-2">
          {result.steps.map((step) => (
            <li key={step.position} className="rounded-md border p-2">
              <p className="font-medium">
                {step.position}. {step.name}{' '}
                <span className="font-normal text-muted-foreground">
                  · {STEP_MODE_LABELS[step.mode]} · {step.slaHours} h
                </span>
              </p>
              {step.approvers.length > 0 ? (
                <ul className="mt-1 flex flex-col gap-0.5">
                  {step.approvers.map((a) => (
                    <li key={a.id}>
                      {a.name}{' '}
                      <span className="text-xs text-muted-foreground">
                        ({roleLabel(a.role)}) — {a.why}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-destructive">Nobody resolves for this step.</p>
              )}
              {step.warnings.map((w) => (
                <Alert key={w} variant="warning" className="mt-2 p-2">
                  <TriangleAlert aria-hidden="true" />
                  <span>{w}</span>
                </Alert>
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
