import { Check, X } from 'lucide-react';
import { useState } from 'react';
import type { BudgetOverrun } from '@outlay/contracts/budgets';
import { DataTable, useListQuery, type DataTableColumn } from '@/components/data-table';
import { ConfirmDialog } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useToast } from '@/components/ui/use-toast';
import { formatDateTime, formatMoney } from '@/lib/format';
import { BudgetImpact } from '@/components/budget-impact';
import { useRequestBudgetImpact } from '../api/budget-impact';
import { BUDGET_OVERRUNS_URL, useDecideOverrun } from '../api/budget-overruns';
import {
  initialOverrunChoice,
  OverrunChoice,
  overrunChoiceInput,
  type OverrunChoiceValue,
} from '../components/overrun-choice';

type State = 'pending' | 'decided';

function OverLines({ o }: { o: BudgetOverrun }) {
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {o.lines.map((l) => (
        <li key={l.budgetLineId}>
          <span>{l.label}</span>{' '}
          <span className="font-medium text-destructive">
            {formatMoney(l.over, l.currency)} over {formatMoney(l.amount, l.currency)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function RequestCell({ o }: { o: BudgetOverrun }) {
  return (
    <a href={`/requests?id=${o.requestId}`} className="flex flex-col hover:underline">
      <span className="font-mono text-xs">{o.reference}</span>
      <span className="font-medium">{o.title}</span>
    </a>
  );
}

const DECISION_LABEL = { approved: 'Approved', rejected: 'Rejected', pending: 'Pending' } as const;

function columnsFor(state: State): DataTableColumn<BudgetOverrun>[] {
  const base: DataTableColumn<BudgetOverrun>[] = [
    { id: 'reference', header: 'Request', hideable: false, cell: (o) => <RequestCell o={o} /> },
    {
      id: 'requester',
      header: 'Requester',
      cell: (o) => (
        <div className="flex flex-col">
          <span>{o.requester.name}</span>
          <span className="text-xs text-muted-foreground">
            {[o.organizationName, o.departmentName].filter(Boolean).join(' · ')}
          </span>
        </div>
      ),
    },
    { id: 'amount', header: 'Amount', sortable: true, align: 'right', cell: (o) => formatMoney(o.amount, o.currency) },
    {
      id: 'lines',
      header: 'Budget lines over',
      className: 'min-w-56 max-w-xs whitespace-normal',
      cell: (o) => <OverLines o={o} />,
    },
  ];
  if (state === 'pending')
    return [...base, { id: 'createdAt', header: 'Raised', sortable: true, cell: (o) => formatDateTime(o.createdAt) }];
  return [
    ...base,
    {
      id: 'status',
      header: 'Decision',
      cell: (o) => <Badge variant={o.status === 'approved' ? 'success' : 'danger'}>{DECISION_LABEL[o.status]}</Badge>,
    },
    {
      id: 'decidedAt',
      header: 'Decided',
      sortable: true,
      cell: (o) => (
        <div className="flex max-w-xs flex-col text-xs">
          <span>
            {o.decidedBy?.name} · {formatDateTime(o.decidedAt)}
          </span>
          {o.note && <span className="text-muted-foreground">“{o.note}”</span>}
        </div>
      ),
    },
  ];
}

/** /budget-overrun-approvals: requests that would take a budget line over; finance approves or rejects with a note. */
export default function BudgetOverrunApprovalsPage() {
  const { toast } = useToast();
  const [state, setState] = useState<State>('pending');
  const query = useListQuery<BudgetOverrun>({
    url: BUDGET_OVERRUNS_URL,
    params: { state },
    defaultSort: state === 'pending' ? 'createdAt' : 'decidedAt',
    defaultOrder: state === 'pending' ? 'asc' : 'desc',
  });
  const decide = useDecideOverrun();
  const [acting, setActing] = useState<{ overrun: BudgetOverrun; decision: 'approved' | 'rejected' } | null>(null);
  const [choice, setChoice] = useState<OverrunChoiceValue>({ choice: 'request_only', raises: {} });
  const impact = useRequestBudgetImpact(acting?.overrun.requestId ?? null);
  const act = (overrun: BudgetOverrun, decision: 'approved' | 'rejected') => {
    setChoice(initialOverrunChoice(overrun));
    setActing({ overrun, decision });
  };

  const actionsOf = (o: BudgetOverrun) =>
    state === 'pending' ? (
      <div className="flex flex-wrap gap-2 md:flex-col">
        <Button size="sm" onClick={() => act(o, 'approved')} aria-label={`Approve overrun of ${o.reference}`}>
          <Check aria-hidden="true" />
          Approve
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => act(o, 'rejected')}
          aria-label={`Reject overrun of ${o.reference}`}
        >
          <X aria-hidden="true" />
          Reject
        </Button>
      </div>
    ) : null;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Budget Overrun Approvals"
        description="Requests that would take a budget line over its amount wait here for the CFO or group CFO before their normal route. Approving lets the route continue; rejecting rejects the request."
      />
      <Tabs value={state} onValueChange={(v) => setState(v as State)}>
        <TabsList>
          <TabsTrigger value="pending">Pending</TabsTrigger>
          <TabsTrigger value="decided">Decided</TabsTrigger>
        </TabsList>
        {(['pending', 'decided'] as const).map((tab) => (
          <TabsContent key={tab} value={tab} className="mt-4">
            {tab === state && (
              <DataTable
                key={state}
                label={state === 'pending' ? 'Pending budget overruns' : 'Decided budget overruns'}
                entityName="budget overruns"
                columns={columnsFor(state)}
                query={query}
                searchPlaceholder="Search by reference or title…"
                exportFormats={false}
                empty={
                  <div className="flex flex-col items-center gap-2 text-center">
                    <p className="font-medium">
                      {state === 'pending' ? 'No overruns waiting' : 'No decided overruns yet'}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Requests that go over a budget line appear here when they are submitted.
                    </p>
                  </div>
                }
                rowActions={state === 'pending' ? actionsOf : undefined}
                renderCard={(o) => (
                  <div className="flex flex-col gap-2 rounded-lg border p-3 text-sm">
                    <RequestCell o={o} />
                    <span className="text-muted-foreground">
                      {o.requester.name} · {o.organizationName} · {formatMoney(o.amount, o.currency)}
                    </span>
                    <OverLines o={o} />
                    {state === 'decided' && (
                      <span className="text-xs">
                        {DECISION_LABEL[o.status]} by {o.decidedBy?.name}
                        {o.note ? `: “${o.note}”` : ''}
                      </span>
                    )}
                    {actionsOf(o)}
                  </div>
                )}
              />
            )}
          </TabsContent>
        ))}
      </Tabs>
      <ConfirmDialog
        open={Boolean(acting)}
        onOpenChange={(o) => !o && setActing(null)}
        title={
          acting?.decision === 'approved'
            ? `Approve the overrun of ${acting?.overrun.reference}?`
            : `Reject ${acting?.overrun.reference ?? ''}?`
        }
        description={
          acting?.decision === 'approved'
            ? 'The request continues on its normal approval route. Your note is kept with the decision.'
            : 'The request is rejected; your note is sent to the requester as the reason.'
        }
        destructive={acting?.decision === 'rejected'}
        confirmLabel={acting?.decision === 'approved' ? 'Approve overrun' : 'Reject request'}
        reason={{
          label: 'Note',
          required: true,
          maxLength: 2000,
          placeholder: 'Why this overrun is (or is not) acceptable',
        }}
        onConfirm={async (note) => {
          if (!acting) return;
          const budget = acting.decision === 'approved' ? overrunChoiceInput(acting.overrun, choice) : {};
          await decide.mutateAsync({
            requestId: acting.overrun.requestId,
            input: { decision: acting.decision, note: note ?? '', ...budget },
          });
          const raised = 'budgetChoice' in budget && budget.budgetChoice === 'raise_line';
          toast({
            title:
              acting.decision === 'approved'
                ? raised
                  ? 'Overrun approved, line raised'
                  : 'Overrun approved'
                : 'Request rejected',
            description: `${acting.overrun.reference} ${acting.decision === 'approved' ? 'continues on its route' : 'was rejected'}.`,
          });
          setActing(null);
        }}
      >
        {acting && <BudgetImpact query={impact} variant="compact" />}
        {acting?.decision === 'approved' && (
          <OverrunChoice overrun={acting.overrun} value={choice} onChange={setChoice} />
        )}
      </ConfirmDialog>
    </div>
  );
}
