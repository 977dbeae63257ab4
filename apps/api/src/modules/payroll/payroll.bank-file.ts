import { eq } from 'drizzle-orm';
import { addMoney, compareMoney, roundToCurrency } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { settings, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { decrypt } from '../../lib/crypto.ts';
import { CSV_CONTENT_TYPE, csvText } from '../../lib/export-writer.ts';
import { organizationInScope } from '../../lib/scope.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import * as repo from './payroll.repository.ts';
import { runInScope } from './payroll.service.ts';
import type * as XmlBuilder from 'xmlbuilder2';
import { onFirstUse } from '../../lib/on-first-use.ts';

const xml = onFirstUse<typeof XmlBuilder>('xmlbuilder2');

/** Settings key: each organization's salary account (the debtor of its bank files), by organization id. */
export const PAYROLL_BANK_ACCOUNTS_KEY = 'payroll_bank_accounts';
export interface DebtorAccount {
  name: string;
  iban: string;
  bic: string;
}

async function debtorAccount(db: Db, organizationId: string): Promise<DebtorAccount | null> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, PAYROLL_BANK_ACCOUNTS_KEY));
  const accounts = (row?.value ?? {}) as Record<string, DebtorAccount>;
  return accounts[organizationId] ?? null;
}

export interface BankFile {
  filename: string;
  contentType: string;
  body: string;
}

interface Transfer {
  employeeId: string;
  employeeNumber: string;
  name: string;
  iban: string;
  bic: string | null;
  amount: string;
}

/** ISO 20022 text fields allow a restricted Latin set in practice; Max35/Max140 lengths are the schema's. */
const clip = (value: string, max: number) => value.slice(0, max);

/** `createdAt` is the run's approval: the file is the one the approver released, whenever downloaded. */
function pain001(run: repo.RunRow, debtor: DebtorAccount, transfers: Transfer[], createdAt: Date): string {
  const ctrlSum = roundToCurrency(addMoney(...transfers.map((t) => t.amount)), run.currency);
  const stamp = createdAt.toISOString().replace(/\.\d{3}Z$/, '');
  const msgId = clip(`PAY-${run.period}-${run.id.slice(0, 8)}-${createdAt.getTime().toString(36)}`, 35);
  const doc = xml()
    .create({ version: '1.0', encoding: 'UTF-8' })
    .ele('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03', 'Document');
  const init = doc.ele('CstmrCdtTrfInitn');
  const hdr = init.ele('GrpHdr');
  hdr.ele('MsgId').txt(msgId);
  hdr.ele('CreDtTm').txt(stamp);
  hdr.ele('NbOfTxs').txt(String(transfers.length));
  hdr.ele('CtrlSum').txt(ctrlSum);
  hdr.ele('InitgPty').ele('Nm').txt(clip(debtor.name, 140));
  const pmt = init.ele('PmtInf');
  pmt.ele('PmtInfId').txt(clip(`SAL-${run.period}-${run.id.slice(0, 8)}`, 35));
  pmt.ele('PmtMtd').txt('TRF');
  pmt.ele('NbOfTxs').txt(String(transfers.length));
  pmt.ele('CtrlSum').txt(ctrlSum);
  // Salary payments (category purpose SALA), so banks keep them confidential.
  pmt.ele('PmtTpInf').ele('CtgyPurp').ele('Cd').txt('SALA');
  pmt.ele('ReqdExctnDt').txt(run.payDate ?? createdAt.toISOString().slice(0, 10));
  pmt.ele('Dbtr').ele('Nm').txt(clip(debtor.name, 140));
  const dbtrAcct = pmt.ele('DbtrAcct');
  dbtrAcct.ele('Id').ele('IBAN').txt(debtor.iban);
  dbtrAcct.ele('Ccy').txt(run.currency);
  pmt.ele('DbtrAgt').ele('FinInstnId').ele('BIC').txt(debtor.bic);
  pmt.ele('ChrgBr').txt('SLEV');
  for (const t of transfers) {
    const tx = pmt.ele('CdtTrfTxInf');
    tx.ele('PmtId')
      .ele('EndToEndId')
      .txt(clip(`${run.period}-${t.employeeNumber}`, 35));
    tx.ele('Amt').ele('InstdAmt', { Ccy: run.currency }).txt(t.amount);
    if (t.bic) tx.ele('CdtrAgt').ele('FinInstnId').ele('BIC').txt(t.bic);
    tx.ele('Cdtr').ele('Nm').txt(clip(t.name, 140));
    tx.ele('CdtrAcct').ele('Id').ele('IBAN').txt(t.iban);
    tx.ele('RmtInf')
      .ele('Ustrd')
      .txt(clip(`Salary ${serverFormat.month(run.period)}`, 140));
  }
  return doc.end({ prettyPrint: true });
}

function csv(run: repo.RunRow, debtor: DebtorAccount, transfers: Transfer[]): string {
  const rows = transfers.map((t) => [
    t.employeeNumber,
    t.name,
    t.iban,
    t.bic ?? '',
    t.amount,
    run.currency,
    run.payDate ?? '',
    `Salary ${serverFormat.month(run.period)}`,
  ]);
  return csvText([
    ['Employee number', 'Name', 'IBAN', 'BIC', 'Amount', 'Currency', 'Execution date', 'Reference'],
    ...rows,
  ]);
}

/**
 * The transfers of an approved or paid run, one per employee with a positive net, from the
 * organization's salary account, to the bank details kept on the run's lines when it was
 * approved: a later change to an employee never reaches the file, and the same run gives the
 * same bytes on every download (the file's time and message id come from the approval).
 */
export async function bankFile(ctx: Ctx, runId: string, format: 'pain001' | 'csv'): Promise<BankFile> {
  const auth = requireAuth(ctx);
  // Every payee's full IBAN: a recent password, never an API key.
  requireRecentAuth(ctx);
  const run = await runInScope(ctx, runId);
  if (!organizationInScope(auth, 'payroll.manage', run.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Payroll run not found' });
  if ((run.status !== 'approved' && run.status !== 'paid') || !run.approvedAt) {
    throw new AppError('CONFLICT', { message: 'The bank file is ready once the payroll run is approved' });
  }
  const debtor = await debtorAccount(ctx.db, run.organizationId);
  if (!debtor) throw new AppError('CONFLICT', { message: `No salary bank account is set for ${run.organizationName}` });
  const payees = await repo.runPayees(ctx.db, { runId, kept: true });
  const paid = payees.filter((p) => compareMoney(p.net, '0') > 0);
  const missing = paid.filter((p) => !p.ibanEnc).map((p) => p.name ?? p.employeeId);
  if (missing.length) {
    throw new AppError('CONFLICT', {
      message: `${serverFormat.list(missing)} had no bank account when this payroll run was approved; pay them outside this file`,
    });
  }
  const transfers: Transfer[] = paid.map((p) => ({
    employeeId: p.employeeId,
    employeeNumber: p.number ?? '',
    name: p.name ?? '',
    iban: decrypt(ctx.bankKey, p.ibanEnc!),
    bic: p.bic,
    amount: roundToCurrency(p.net, run.currency),
  }));
  const base = `payroll-${run.period}-${run.organizationName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return format === 'csv'
    ? { filename: `${base}.csv`, contentType: CSV_CONTENT_TYPE, body: csv(run, debtor, transfers) }
    : {
        filename: `${base}.xml`,
        contentType: 'application/xml; charset=utf-8',
        body: pain001(run, debtor, transfers, run.approvedAt),
      };
}
