import { useId } from 'react';
import type { BudgetOverrun, OverrunBudgetChoice } from '@outlay/contracts/budgets';
import { normalizeAmount } from '@/components/form';
import { Input } from '@/components/ui/input';
import { formatMoney } from '@/lib/format';

export interface OverrunChoiceValue {
  choice: OverrunBudgetChoice;
  /** The raise per line as typed (the overrun until changed). */
  raises: Record<string, string>;
}

export function initialOverrunChoice(o: BudgetOverrun): OverrunChoiceValue {
  return { choice: 'request_only', raises: Object.fromEntries(o.lines.map((l) => [l.budgetLineId, l.over])) };
}

/** The body the decision sends: only raises that differ from the overrun (the server's default). */
export function overrunChoiceInput(o: BudgetOverrun, value: OverrunChoiceValue) {
  if (value.choice !== 'raise_line') return { budgetChoice: 'request_only' as const };
  const raises = o.lines
    .map((l) => ({ budgetLineId: l.budgetLineId, amount: normalizeAmount(value.raises[l.budgetLineId] ?? l.over) }))
    .filter((r, i) => r.amount !== o.lines[i]!.over);
  return { budgetChoice: 'raise_line' as const, ...(raises.length ? { raises } : {}) };
}

/**
 * On approving an overrun: let this request through only (the line stays as it is, so later
 * requests on it come back here), or raise each line it goes over by its overrun, or by more to
 * leave headroom for the rest of the period.
 */
export function OverrunChoice({
  overrun,
  value,
  onChange,
}: {
  overrun: BudgetOverrun;
  value: OverrunChoiceValue;
  onChange: (value: OverrunChoiceValue) => void;
}) {
  const id = useId();
  const raise = value.choice === 'raise_line';
  return (
    <fieldset className="flex flex-col gap-2 rounded-md border p-3 text-sm">
      <legend className="px-1 font-medium">Budget line</legend>
      <label className="flex items-start gap-2">
        <input
          type="radio"
          name={`${id}-choice`}
          className="mt-1"
          checked={!raise}
          onChange={() => onChange({ ...value, choice: 'request_only' })}
        />
        <span>
          <span className="font-medium">Approve this request only</span>
          <span className="block text-xs text-muted-foreground">
            The line keeps its amount; later requests that go over it come back here.
          </span>
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input
          type="radio"
          name={`${id}-choice`}
          className="mt-1"
          checked={raise}
          onChange={() => onChange({ ...value, choice: 'raise_line' })}
        />
        <span>
          <span className="font-medium">Raise the line by the overrun</span>
          <span className="block text-xs text-muted-foreground">
            The line’s amount goes up, recorded in its history in Budget Management.
          </span>
        </span>
      </label>
      {raise && (
        <ul className="ml-6 flex flex-col gap-2">
          {overrun.lines.map((l) => {
            const inputId = `${id}-${l.budgetLineId}`;
            return (
              <li key={l.budgetLineId} className="flex flex-col gap-1">
                <label htmlFor={inputId} className="text-xs">
                  Raise <span className="font-medium">{l.label}</span> ({formatMoney(l.amount, l.currency)}) by, in{' '}
                  {l.currency}
                </label>
                <Input
                  id={inputId}
                  inputMode="decimal"
                  className="max-w-40"
                  value={value.raises[l.budgetLineId] ?? l.over}
                  onChange={(event) =>
                    onChange({ ...value, raises: { ...value.raises, [l.budgetLineId]: event.target.value } })
                  }
                />
                <span className="text-xs text-muted-foreground">
                  At least the overrun, {formatMoney(l.over, l.currency)}; more leaves headroom.
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
