import { AlertTriangle, Banknote, CheckCircle2, Download, FileText, Plus, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { PAYROLL_ADJUSTMENT_KIND_LABELS, type PayrollLine, type PayrollRunDetail } from '@outlay/contracts/payroll';
import { ConfirmDialog, useStepUp } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDate, formatDateTime, formatMovedFrom, formatMoney, formatMonth, plural } from '@/lib/format';
import { useRemovePayrollAdjustment } from '../api/payroll-adjustments';
import { downloadBankFile, downloadPayslip } from '../api/payroll-files';
import { usePayrollRun } from '../api/payroll-run';
import { useMovePayrollRun, type PayrollRunMove } from '../api/payroll-run-transitions';
import { AdjustmentDialog } from './adjustment-dialog';
import { PayrollStatusBadge } from './payroll-status-badge';

const MOVES: Record<
  PayrollRunMove,
  { title: string; confirm: string; done: string; description: (run: PayrollRunDetail) => string }
> = {
  submit: {
    title: 'Submit for approval?',
    confirm: 'Submit',
    done: 'Submitted for approval',
    description: (r) =>
      `${formatMoney(r.netTotal, r.currency)} net for ${plural(r.employeeCount, 'employee')}. Approvers are notified; the run can no longer be adjusted.`,
  },
  approve: {
    title: 'Approve this payroll?',
    confirm: 'Approve',
    done: 'Payroll approved',
    description: (r) =>
      `${formatMoney(r.netTotal, r.currency)} net, ${formatMoney(r.employerCostTotal, r.currency)} employer cost. The bank file becomes available.`,
  },
  pay: {
    title: 'Mark as paid?',
    confirm: 'Mark paid',
    done: 'Marked paid',
    description: (r) => `Confirm that the bank has executed the transfers of ${formatMoney(r.netTotal, r.currency)}.`,
  },
};

const CHANGED = 'Changed since the last run';

/** Where the line's net is paid (masked), flagged when it differs from the payee's previous run. */
function BankAccount({ line }: { line: PayrollLine }) {
  return (
    <span className="flex flex-wrap items-center gap-1" data-testid="payroll-line-bank">
      {line.ibanMasked ? (
        <span className="whitespace-nowrap font-mono text-xs" aria-label={`IBAN ending ${line.ibanMasked.slice(-4)}`}>
          {line.ibanMasked}
          {line.bic ? ` · ${line.bic}` : ''}
        </span>
      ) : (
        <span className="text-xs text-muted-foreground">No bank account</span>
      )}
      {line.bankDetailsChanged && (
        <Badge variant="warning" data-testid="bank-details-changed">
          <AlertTriangle className="size-3" aria-hidden="true" /> {CHANGED}
        </Badge>
      )}
    </span>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-lg border bg-muted/30 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd
        className="truncate text-base font-semibold tabular-nums"
        data-testid={`run-${label.toLowerCase().replace(/\s+/g, '-')}`}
      >
        {value}
      </dd>
    </div>
  );
}

function LineCards({
  run,
  lines,
  onPayslip,
}: {
  run: PayrollRunDetail;
  lines: PayrollLine[];
  onPayslip?: (line: PayrollLine) => void;
}) {
  const m = (v: string) => formatMoney(v, run.currency);
  return (
    <ul className="flex flex-col gap-2 sm:hidden" aria-label="Payroll lines">
      {lines.map((l) => (
        <li key={l.employeeId} className="rounded-lg border p-3 text-sm" data-testid="payroll-line-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="break-words font-medium">{l.employeeName}</p>
              <p className="text-xs text-muted-foreground">
                {l.employeeNumber}
                {l.departmentName ? ` · ${l.departmentName}` : ''}
                {l.daysWorked < l.daysInPeriod ? ` · ${l.daysWorked}/${l.daysInPeriod} days` : ''}
              </p>
              <BankAccount line={l} />
            </div>
            <span className="shrink-0 text-right font-semibold tabular-nums">{m(l.net)}</span>
          </div>
          <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
            <dt className="text-muted-foreground">Gross</dt>
            <dd className="text-right tabular-nums">{m(l.gross)}</dd>
            <dt className="text-muted-foreground">Deductions</dt>
            <dd className="text-right tabular-nums">{m(l.deductions)}</dd>
            {l.adjustments !== '0.00' && (
              <>
                <dt className="text-muted-foreground">Adjustments</dt>
                <dd className="text-right tabular-nums">{m(l.adjustments)}</dd>
              </>
            )}
            <dt className="text-muted-foreground">Employer cost</dt>
            <dd className="text-right tabular-nums">{m(l.employerCost)}</dd>
          </dl>
          {onPayslip && (
            <Button size="sm" variant="outline" className="mt-2" onClick={() => onPayslip(l)}>
              <FileText aria-hidden="true" /> Payslip<span className="sr-only"> of {l.employeeName}</span>
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function LineTable({
  run,
  lines,
  onPayslip,
}: {
  run: PayrollRunDetail;
  lines: PayrollLine[];
  onPayslip?: (line: PayrollLine) => void;
}) {
  const m = (v: string) => formatMoney(v, run.currency);
  return (
    <div
      className="relative hidden overflow-x-auto rounded-lg border sm:block"
      tabIndex={0}
      role="region"
      aria-label="Payroll lines"
    >
      <table className="w-full text-sm">
        <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
          <tr>
            <th className="px-3 py-2 font-medium">Employee</th>
            <th className="px-3 py-2 font-medium">Bank account</th>
            <th className="px-3 py-2 text-right font-medium">Days</th>
            <th className="px-3 py-2 text-right font-medium">Base</th>
            <th className="px-3 py-2 text-right font-medium">Allowances</th>
            <th className="px-3 py-2 text-right font-medium">Adjustments</th>
            <th className="px-3 py-2 text-right font-medium">Gross</th>
            <th className="px-3 py-2 text-right font-medium">Deductions</th>
            <th className="px-3 py-2 text-right font-medium">Net</th>
            <th className="px-3 py-2 text-right font-medium">Employer cost</th>
            {onPayslip && (
              <th className="px-3 py-2">
                <span className="sr-only">Payslip</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.employeeId} className="border-t" data-testid="payroll-line-row">
              <td className="px-3 py-2">
                <span className="block whitespace-nowrap font-medium">{l.employeeName}</span>
                <span className="block whitespace-nowrap text-xs text-muted-foreground">
                  {l.employeeNumber}
                  {l.departmentName ? ` · ${l.departmentName}` : ''}
                </span>
              </td>
              <td className="px-3 py-2">
                <BankAccount line={l} />
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {l.daysWorked < l.daysInPeriod ? `${l.daysWorked}/${l.daysInPeriod}` : l.daysInPeriod}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{m(l.base)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{m(l.allowances)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{m(l.adjustments)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{m(l.gross)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{m(l.deductions)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right font-medium tabular-nums">{m(l.net)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{m(l.employerCost)}</td>
              {onPayslip && (
                <td className="px-3 py-2 text-right">
                  <Button size="sm" variant="ghost" onClick={() => onPayslip(l)}>
                    <FileText aria-hidden="true" /> Payslip<span className="sr-only"> of {l.employeeName}</span>
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RunBody({ run, canManage }: { run: PayrollRunDetail; canManage: boolean }) {
  const { toast } = useToast();
  const stepUp = useStepUp();
  const move = useMovePayrollRun(stepUp.withStepUp);
  const remove = useRemovePayrollAdjustment();
  const [confirming, setConfirming] = useState<PayrollRunMove | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const m = (v: string) => formatMoney(v, run.currency);
  const changedPayees = run.lines.filter((l) => l.bankDetailsChanged);

  const download = async (task: () => Promise<string>) => {
    setError(null);
    try {
      // Bank files and payslips ask for the password when the last one is over 10 minutes old.
      const name = await stepUp.withStepUp(task)();
      toast({ title: 'Downloaded', description: name });
    } catch (e) {
      setError(messageOf(e, 'Could not download the file.'));
    }
  };
  const payslip = canManage
    ? (l: PayrollLine) => void download(() => downloadPayslip(run.id, l.employeeId))
    : undefined;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <dl className="grid grid-cols-2 gap-2 lg:grid-cols-5">
        <Figure label="Employees" value={String(run.employeeCount)} />
        <Figure label="Gross" value={m(run.grossTotal)} />
        <Figure label="Deductions" value={m(run.deductionsTotal)} />
        <Figure label="Net pay" value={m(run.netTotal)} />
        <Figure label="Employer cost" value={m(run.employerCostTotal)} />
      </dl>
      <p className="text-sm text-muted-foreground">
        {run.payDate &&
          `Pays on ${formatDate(run.payDate)}${run.payDateAdjustedFrom ? `, ${formatMovedFrom(run.payDateAdjustedFrom, run.payDateAdjustedReason)}` : ''}. `}
        {run.submittedByName && `Submitted by ${run.submittedByName} on ${formatDateTime(run.submittedAt)}. `}
        {run.approvedByName && `Approved by ${run.approvedByName} on ${formatDateTime(run.approvedAt)}. `}
        {run.paidAt &&
          `Paid on ${formatDateTime(run.paidAt)}${run.paymentReference ? ` (${run.paymentReference})` : ''}.`}
        {run.status === 'draft' && 'Draft: adjustments recompute the lines and totals until it is submitted.'}
      </p>
      {run.approveBlockedReason && <Alert variant="info">{run.approveBlockedReason}.</Alert>}
      {changedPayees.length > 0 && (
        <Alert variant="warning" data-testid="bank-details-changed-summary">
          Bank details {CHANGED.toLowerCase()} for {changedPayees.map((l) => l.employeeName).join(', ')}. Check the new
          account before approving or paying.
        </Alert>
      )}
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        {run.actions.adjust && (
          <Button variant="outline" onClick={() => setAdjusting(true)}>
            <Plus aria-hidden="true" /> Add adjustment
          </Button>
        )}
        {run.actions.submit && (
          <Button onClick={() => setConfirming('submit')}>
            <Send aria-hidden="true" /> Submit for approval
          </Button>
        )}
        {run.actions.approve && (
          <Button onClick={() => setConfirming('approve')}>
            <CheckCircle2 aria-hidden="true" /> Approve
          </Button>
        )}
        {run.actions.pay && (
          <Button onClick={() => setConfirming('pay')}>
            <Banknote aria-hidden="true" /> Mark paid
          </Button>
        )}
        {run.actions.download && (
          <>
            <Button variant="outline" onClick={() => void download(() => downloadBankFile(run.id, 'pain001'))}>
              <Download aria-hidden="true" /> Bank file (XML)
            </Button>
            <Button variant="outline" onClick={() => void download(() => downloadBankFile(run.id, 'csv'))}>
              <Download aria-hidden="true" /> Bank file (CSV)
            </Button>
          </>
        )}
      </div>
      {run.adjustmentItems.length > 0 && (
        <section aria-labelledby="payroll-adjustments" className="flex flex-col gap-2">
          <h3 id="payroll-adjustments" className="text-sm font-semibold">
            Adjustments
          </h3>
          <ul className="flex flex-col gap-1 text-sm">
            {run.adjustmentItems.map((a) => (
              <li
                key={a.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2"
                data-testid="payroll-adjustment"
              >
                <span className="min-w-0 break-words">
                  <span className="font-medium">{PAYROLL_ADJUSTMENT_KIND_LABELS[a.kind]}</span>{' '}
                  {a.kind === 'bonus' ? '+' : '−'}
                  {m(a.amount)} · {a.employeeName} · {a.reason}
                </span>
                {run.actions.adjust && (
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(
                        { runId: run.id, adjustmentId: a.id },
                        { onError: (e) => setError(messageOf(e, 'Could not remove the adjustment.')) },
                      )
                    }
                  >
                    <Trash2 aria-hidden="true" /> Remove
                    <span className="sr-only"> the adjustment of {a.employeeName}</span>
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {run.lines.length === 0 ? (
        <p className="rounded-lg border p-6 text-center text-sm text-muted-foreground">
          Nobody at this organization is employed in {formatMonth(run.period)}.
        </p>
      ) : (
        <>
          <LineTable run={run} lines={run.lines} onPayslip={payslip} />
          <LineCards run={run} lines={run.lines} onPayslip={payslip} />
        </>
      )}
      {adjusting && <AdjustmentDialog run={run} open={adjusting} onOpenChange={setAdjusting} />}
      {confirming && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setConfirming(null)}
          title={MOVES[confirming].title}
          description={MOVES[confirming].description(run)}
          confirmLabel={MOVES[confirming].confirm}
          destructive={false}
          reason={
            confirming === 'pay' ? { label: 'Bank payment reference', required: false, maxLength: 140 } : undefined
          }
          onConfirm={async (reference) => {
            await move.mutateAsync({
              id: run.id,
              move: confirming,
              input: confirming === 'pay' ? { paymentReference: reference || null } : undefined,
            });
            toast({
              title: MOVES[confirming].done,
              description: `${run.organizationName} · ${formatMonth(run.period)}`,
            });
          }}
        />
      )}
      {stepUp.dialog}
    </div>
  );
}

/** One run: totals, lines, adjustments and the moves the caller may make. */
export function RunDialog({
  runId,
  onClose,
  canManage,
}: {
  runId: string | null;
  onClose: () => void;
  canManage: boolean;
}) {
  const query = usePayrollRun(runId);
  const run = query.data;
  return (
    <Dialog open={Boolean(runId)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-6xl">
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center gap-2 pr-6">
            {run ? `${run.organizationName} · ${formatMonth(run.period)}` : 'Payroll run'}
            {run && <PayrollStatusBadge status={run.status} />}
          </DialogTitle>
          <DialogDescription>
            {run
              ? `Amounts in ${run.currency}; each line is rounded to the currency's smallest unit and the totals add the lines.`
              : 'Loading the run…'}
          </DialogDescription>
        </DialogHeader>
        <QueryState
          query={query}
          loadingLabel="Loading the payroll run"
          errorMessage="Could not load this payroll run."
          notFoundMessage="This payroll run does not exist or is outside your organization."
        >
          {(data) => <RunBody run={data} canManage={canManage} />}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
