import {
  MAX_EXPORT_ROWS,
  VENDOR_STATUS_LABELS,
  VENDOR_TRANSITIONS,
  maskBankAccount,
  type CreateVendorInput,
  type UpdateVendorInput,
  type Vendor,
  type VendorDetail,
  type VendorExportQuery,
  type VendorList,
  type VendorListQuery,
  type VendorOrganization,
  type VendorStatusInput,
} from '@outlay/contracts';
import { roundToCurrency } from '@outlay/contracts/money';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import { page } from '../../lib/lists.ts';
import { queueEmail } from '../../lib/notify.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { assertVersion, versionConflict } from '../../lib/versions.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { vendors, type Db } from '@outlay/db';
import * as repo from './vendors.repository.ts';
import type { VendorRow } from './vendors.repository.ts';
import type { ExportColumn } from '../../lib/export.ts';

const PERMISSION = 'vendors.manage' as const;
export const TAX_ID_TAKEN = 'A vendor with this tax ID already exists';
const NOT_FOUND = 'Vendor not found';

function scope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), PERMISSION, { organizationId: vendors.organizationId });
}

export function toVendor(row: VendorRow): Vendor {
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    name: row.name,
    taxId: row.taxId,
    contactName: row.contactName,
    email: row.email,
    phone: row.phone,
    address: row.address,
    paymentTermsDays: row.paymentTermsDays,
    currency: row.currency,
    bankAccountMasked: maskBankAccount(row.bankAccountLast4),
    pendingBankChange:
      row.pendingBankAt && row.pendingBankAccountLast4
        ? {
            bankAccountMasked: maskBankAccount(row.pendingBankAccountLast4)!,
            requestedById: row.pendingBankById,
            requestedByName: row.pendingBankByFirstName
              ? `${row.pendingBankByFirstName} ${row.pendingBankByLastName ?? ''}`.trim()
              : null,
            requestedAt: row.pendingBankAt.toISOString(),
          }
        : null,
    status: row.status,
    intercompanyOrganizationId: row.intercompanyOrganizationId,
    version: row.version,
    spendToDate: roundToCurrency(row.spendToDate ?? '0', row.spendCurrency),
    openBalance: roundToCurrency(row.openBalance ?? '0', row.spendCurrency),
    spendCurrency: row.spendCurrency,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of a vendor: everything but bank details beyond the last four. */
function auditView(
  row: Pick<
    VendorRow,
    | 'name'
    | 'taxId'
    | 'contactName'
    | 'email'
    | 'phone'
    | 'address'
    | 'paymentTermsDays'
    | 'currency'
    | 'bankAccountLast4'
    | 'status'
    | 'organizationId'
  >,
) {
  return {
    organizationId: row.organizationId,
    name: row.name,
    taxId: row.taxId,
    contactName: row.contactName,
    email: row.email,
    phone: row.phone,
    address: row.address,
    paymentTermsDays: row.paymentTermsDays,
    currency: row.currency,
    bankAccountLast4: row.bankAccountLast4,
    status: row.status,
  };
}

function taxIdConflict() {
  return new AppError('CONFLICT', { message: TAX_ID_TAKEN, details: [{ path: 'taxId', message: TAX_ID_TAKEN }] });
}

export async function listVendors(ctx: Ctx, query: VendorListQuery): Promise<VendorList> {
  const { rows, total } = await repo.listVendors(ctx.db, { scope: scope(ctx), query, window: repo.pageWindow(query) });
  return page(rows.map(toVendor), total, query);
}

export async function exportVendors(ctx: Ctx, query: VendorExportQuery): Promise<Vendor[]> {
  const { rows } = await repo.listVendors(ctx.db, {
    scope: scope(ctx),
    query,
    window: { limit: MAX_EXPORT_ROWS, offset: 0 },
  });
  return rows.map(toVendor);
}

export const EXPORT_COLUMNS: ExportColumn<Vendor>[] = [
  { header: 'Name', value: (v: Vendor) => v.name },
  { header: 'Tax ID', value: (v: Vendor) => v.taxId },
  { header: 'Organization', value: (v: Vendor) => v.organizationName },
  { header: 'Status', value: (v: Vendor) => VENDOR_STATUS_LABELS[v.status] },
  { header: 'Currency', value: (v: Vendor) => v.currency },
  { header: 'Payment terms (days)', value: (v: Vendor) => v.paymentTermsDays, type: 'number' },
  { header: 'Contact', value: (v: Vendor) => v.contactName },
  { header: 'E-mail', value: (v: Vendor) => v.email },
  { header: 'Phone', value: (v: Vendor) => v.phone },
  { header: 'Address', value: (v: Vendor) => v.address },
  { header: 'Bank account', value: (v: Vendor) => v.bankAccountMasked },
  {
    header: 'Spend to date',
    value: (v: Vendor) => v.spendToDate,
    type: 'money',
    currency: (v: Vendor) => v.spendCurrency,
  },
  {
    header: 'Open balance',
    value: (v: Vendor) => v.openBalance,
    type: 'money',
    currency: (v: Vendor) => v.spendCurrency,
  },
  { header: 'Spend currency', value: (v: Vendor) => v.spendCurrency },
  { header: 'Created', value: (v: Vendor) => v.createdAt, type: 'datetime' },
];

export async function getVendor(ctx: Ctx, id: string): Promise<VendorDetail> {
  const row = await repo.findVendor(ctx.db, { id, scope: scope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  const change = await repo.lastStatusChange(ctx.db, id);
  const after = (change?.after ?? null) as { status?: VendorRow['status'] } | null;
  const metadata = (change?.metadata ?? null) as { reason?: string | null } | null;
  return {
    ...toVendor(row),
    lastStatusChange:
      change && after?.status
        ? {
            status: after.status,
            reason: metadata?.reason ?? null,
            at: new Date(change.at).toISOString(),
            actorName: change.firstName ? `${change.firstName} ${change.lastName}` : null,
          }
        : null,
  };
}

/** Organizations the caller keeps vendors for: all for group scope, their own otherwise. */
export async function vendorOrganizations(ctx: Ctx): Promise<{ items: VendorOrganization[] }> {
  const auth = requireAuth(ctx);
  const s = scopeOf(auth, PERMISSION);
  const items = await repo.listOrganizations(ctx.db, { onlyId: s === 'group' ? undefined : auth.organizationId });
  return { items };
}

function sealBank(
  ctx: Ctx,
  bankAccount: string | null | undefined,
): { bankAccountEnc?: string | null; bankAccountLast4?: string | null } {
  if (bankAccount === undefined) return {};
  if (bankAccount === null) return { bankAccountEnc: null, bankAccountLast4: null };
  return { bankAccountEnc: encrypt(ctx.bankKey, bankAccount), bankAccountLast4: bankAccount.slice(-4) };
}

export async function createVendor(ctx: Ctx, input: CreateVendorInput): Promise<VendorDetail> {
  const auth = requireAuth(ctx);
  if (!organizationInScope(auth, PERMISSION, input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  if (!org.active)
    throw new AppError('VALIDATION_ERROR', {
      message: 'This organization is inactive',
      details: [{ path: 'organizationId', message: 'This organization is inactive' }],
    });
  if (await repo.taxIdTaken(ctx.db, { taxId: input.taxId })) throw taxIdConflict();
  const bank = sealBank(ctx, input.bankAccount);
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const values = {
        organizationId: input.organizationId,
        name: input.name,
        taxId: input.taxId,
        contactName: input.contactName ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        address: input.address ?? null,
        paymentTermsDays: input.paymentTermsDays,
        currency: input.currency,
        bankAccountEnc: bank.bankAccountEnc ?? null,
        bankAccountLast4: bank.bankAccountLast4 ?? null,
        status: 'pending_verification' as const,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      const newId = await repo.insertVendor(tx, values);
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'vendor.created',
          entityType: 'vendor',
          entityId: newId,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          after: auditView(values),
        },
        ctx.now,
      );
      return newId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taxIdConflict();
    throw error;
  }
  return getVendor(ctx, id);
}

export async function updateVendor(
  ctx: Ctx,
  id: string,
  input: UpdateVendorInput,
  expectedVersion?: number,
): Promise<VendorDetail> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  if (!(await repo.findVendor(ctx.db, { id, scope: s }))) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  if (input.taxId !== undefined && (await repo.taxIdTaken(ctx.db, { taxId: input.taxId, exceptId: id })))
    throw taxIdConflict();
  try {
    await ctx.db.transaction(async (tx) => {
      const before = await repo.findVendor(tx, { id, scope: s, forUpdate: true });
      if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
      assertVersion(before.version, expectedVersion);
      const changes: Partial<typeof vendors.$inferInsert> = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.taxId !== undefined) changes.taxId = input.taxId;
      if (input.contactName !== undefined) changes.contactName = input.contactName;
      if (input.email !== undefined) changes.email = input.email;
      if (input.phone !== undefined) changes.phone = input.phone;
      if (input.address !== undefined) changes.address = input.address;
      if (input.paymentTermsDays !== undefined) changes.paymentTermsDays = input.paymentTermsDays;
      if (input.currency !== undefined) changes.currency = input.currency;
      const detailsChanged = Object.keys(changes).length > 0;
      const bank = await bankChange(ctx, tx, before, input);
      Object.assign(changes, bank.values);
      if (!(await repo.updateVendorRow(tx, { id, expectedVersion, values: { ...changes, updatedAt: ctx.now } })))
        throw versionConflict();
      const after = { ...before, ...changes } as VendorRow;
      if (bank.pending) {
        await writeAudit(
          tx,
          {
            actorId: auth.userId,
            action: 'vendor.bank_change_requested',
            entityType: 'vendor',
            entityId: id,
            ip: ctx.ip,
            userAgent: ctx.userAgent,
            before: { bankAccountLast4: before.bankAccountLast4 },
            after: { bankAccountLast4: changes.pendingBankAccountLast4 ?? null },
          },
          ctx.now,
        );
        // To the address on file before this edit as well: one edit changing both the account
        // and the contact address must not keep the notice from the payee.
        const addresses = new Set([before.email, after.email].filter((a): a is string => Boolean(a)));
        for (const to of addresses)
          await emailPayee(
            tx,
            { ...after, email: to },
            before.bankAccountLast4,
            changes.pendingBankAccountLast4 ?? null,
            'requested',
            ctx.now,
          );
      }
      // An edit that only asked for a bank account change is audited by the request above.
      if (detailsChanged || !bank.pending) {
        await writeAudit(
          tx,
          {
            actorId: auth.userId,
            action: 'vendor.updated',
            entityType: 'vendor',
            entityId: id,
            ip: ctx.ip,
            userAgent: ctx.userAgent,
            before: auditView(before),
            after: auditView(after),
            metadata: bank.applied ? { bankAccountChanged: true } : undefined,
          },
          ctx.now,
        );
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taxIdConflict();
    throw error;
  }
  return getVendor(ctx, id);
}

const CLEAR_PENDING = {
  pendingBankAccountEnc: null,
  pendingBankAccountLast4: null,
  pendingBankById: null,
  pendingBankAt: null,
};

/**
 * What a bank account edit does. Adding the first account or removing the one on file applies at
 * once (neither sends a payment somewhere new instead of somewhere known). Changing the account
 * on file only records the change as pending: it takes effect once someone other than its
 * author confirms it.
 */
async function bankChange(ctx: Ctx, tx: Db, before: VendorRow, input: UpdateVendorInput) {
  const none = { values: {} as Partial<typeof vendors.$inferInsert>, pending: false, applied: false };
  if (input.bankAccount === undefined) return none;
  const sealed = await repo.vendorSealedBank(tx, before.id);
  const onFile = sealed?.bankAccountEnc ? decrypt(ctx.bankKey, sealed.bankAccountEnc) : null;
  if (!onFile || input.bankAccount === null)
    return { values: { ...sealBank(ctx, input.bankAccount), ...CLEAR_PENDING }, pending: false, applied: true };
  // The account on file typed again (the form's "keep" is an empty field): nothing to change, and a pending change stays.
  if (input.bankAccount === onFile) return none;
  const auth = requireAuth(ctx);
  return {
    values: {
      pendingBankAccountEnc: encrypt(ctx.bankKey, input.bankAccount),
      pendingBankAccountLast4: input.bankAccount.slice(-4),
      pendingBankById: auth.userId,
      pendingBankAt: ctx.now,
    },
    pending: true,
    applied: false,
  };
}

/**
 * Tells the payee at their contact address, so a change they did not ask for (a forged "new bank
 * details" letter) is noticed before money goes there. Only the last four characters are named.
 */
async function emailPayee(
  tx: Db,
  vendor: Pick<VendorRow, 'name' | 'email' | 'contactName' | 'organizationName'>,
  fromLast4: string | null,
  toLast4: string | null,
  stage: 'requested' | 'confirmed',
  now: Date,
) {
  const payer = vendor.organizationName;
  const account = (last4: string | null) => (last4 ? `the account ending ${last4}` : 'no account');
  const lines = [vendor.contactName ? `Hello ${vendor.contactName},` : 'Hello,', ''];
  if (stage === 'requested') {
    lines.push(
      `${payer} was asked to change the bank account it pays ${vendor.name} to: payments are to go to ${account(toLast4)} once a second person at ${payer} confirms the change.`,
      `Until then, payments go to ${account(fromLast4)} as before.`,
    );
  } else {
    lines.push(`${payer} now pays ${vendor.name} to ${account(toLast4)} (before: ${account(fromLast4)}).`);
  }
  lines.push(
    '',
    `If you did not ask for this change, contact the finance team of ${payer} at once, using contact details you already know rather than any given in a message about the change.`,
  );
  await queueEmail(
    tx,
    {
      to: vendor.email,
      subject:
        stage === 'requested'
          ? `${payer}: a change of your bank account was requested`
          : `${payer}: your bank account on file was changed`,
      body: lines.join('\n'),
    },
    now,
  );
}

export const OWN_BANK_CHANGE =
  'You asked for this bank account change; someone else who manages vendors must confirm it';

/** Confirms a vendor's pending bank account change (not by the one who asked for it). */
export async function confirmBankChange(ctx: Ctx, id: string): Promise<VendorDetail> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.findVendor(tx, { id, scope: s, forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    const sealed = await repo.vendorSealedBank(tx, id);
    if (!before.pendingBankAt || !sealed?.pendingBankAccountEnc)
      throw new AppError('CONFLICT', { message: 'There is no bank account change to confirm' });
    if (before.pendingBankById === auth.userId) throw new AppError('FORBIDDEN', { message: OWN_BANK_CHANGE });
    // After the refusals a password cannot cure, so nobody is asked for one in vain.
    requireRecentAuth(ctx);
    const values = {
      bankAccountEnc: sealed.pendingBankAccountEnc,
      bankAccountLast4: before.pendingBankAccountLast4,
      ...CLEAR_PENDING,
      updatedAt: ctx.now,
    };
    if (!(await repo.updateVendorRow(tx, { id, expectedVersion: before.version, values }))) throw versionConflict();
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'vendor.bank_change_confirmed',
        entityType: 'vendor',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { bankAccountLast4: before.bankAccountLast4 },
        after: { bankAccountLast4: before.pendingBankAccountLast4 },
        metadata: { requestedById: before.pendingBankById, requestedAt: before.pendingBankAt.toISOString() },
      },
      ctx.now,
    );
    await emailPayee(tx, before, before.bankAccountLast4, before.pendingBankAccountLast4, 'confirmed', ctx.now);
  });
  return getVendor(ctx, id);
}

/** Withdraws a vendor's pending bank account change (anyone who may edit the vendor). */
export async function discardBankChange(ctx: Ctx, id: string): Promise<VendorDetail> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.findVendor(tx, { id, scope: s, forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    if (!before.pendingBankAt)
      throw new AppError('CONFLICT', { message: 'There is no bank account change to discard' });
    if (
      !(await repo.updateVendorRow(tx, {
        id,
        expectedVersion: before.version,
        values: { ...CLEAR_PENDING, updatedAt: ctx.now },
      }))
    )
      throw versionConflict();
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'vendor.bank_change_discarded',
        entityType: 'vendor',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { pendingBankAccountLast4: before.pendingBankAccountLast4 },
        metadata: { requestedById: before.pendingBankById, requestedAt: before.pendingBankAt.toISOString() },
      },
      ctx.now,
    );
  });
  return getVendor(ctx, id);
}

export async function setVendorStatus(
  ctx: Ctx,
  id: string,
  input: VendorStatusInput,
  expectedVersion?: number,
): Promise<VendorDetail> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const current = await repo.findVendor(tx, { id, scope: s, forUpdate: true });
    if (!current) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    assertVersion(current.version, expectedVersion);
    if (current.status === input.status) {
      throw new AppError('CONFLICT', {
        message: `This vendor is already ${VENDOR_STATUS_LABELS[input.status].toLowerCase()}`,
      });
    }
    if (!VENDOR_TRANSITIONS[current.status].includes(input.status)) {
      throw new AppError('CONFLICT', {
        message: `A vendor that is ${VENDOR_STATUS_LABELS[current.status].toLowerCase()} cannot become ${VENDOR_STATUS_LABELS[input.status].toLowerCase()}`,
      });
    }
    if (
      !(await repo.changeVendorStatus(tx, {
        id,
        from: current.status,
        to: input.status,
        now: ctx.now,
        expectedVersion,
      }))
    ) {
      throw new AppError('CONFLICT', { message: 'This vendor was changed by someone else; reload and try again' });
    }
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'vendor.status_changed',
        entityType: 'vendor',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { status: current.status },
        after: { status: input.status },
        metadata: { reason: input.reason || null },
      },
      ctx.now,
    );
  });
  return getVendor(ctx, id);
}
