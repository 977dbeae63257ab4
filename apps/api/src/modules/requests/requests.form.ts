// What the request form offers: organizations, categories, vendors and the amount's conversions.
import { type FxQuote, type RequestFormOptions, type VendorFilterOptions, type VendorOptions } from '@outlay/contracts';
import { toAmountString } from '@outlay/contracts/money';
import { vendors, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { assertStorable, convert, groupCurrency, knownCurrencies } from '../../lib/fx.ts';
import { scopeCondition } from '../../lib/scope.ts';
import * as repo from './requests.repository.ts';

function callerOrganizationId(auth: AuthInfo): string {
  if (!auth.organizationId) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Your account does not belong to an organization; ask an administrator to assign one',
    });
  }
  return auth.organizationId;
}

export async function callerOrganization(db: Db, auth: AuthInfo) {
  const org = await repo.organizationOf(db, callerOrganizationId(auth));
  if (!org) throw new AppError('VALIDATION_ERROR', { message: 'Your organization was not found' });
  return org;
}

export async function formOptions(ctx: Ctx): Promise<RequestFormOptions> {
  const auth = requireAuth(ctx);
  const org = await callerOrganization(ctx.db, auth);
  const departments = await repo.departmentsOf(ctx.db, org.id);
  const categories = await repo.categoriesFor(ctx.db, org.id);
  const currencies = await knownCurrencies(ctx.db);
  const group = await groupCurrency(ctx.db);
  return {
    organization: org,
    groupCurrency: group,
    defaultDepartmentId:
      auth.departmentId && departments.some((d) => d.id === auth.departmentId) ? auth.departmentId : null,
    departments,
    categories,
    currencies: [org.currency, ...currencies.filter((c) => c !== org.currency)],
  };
}

export async function vendorOptions(ctx: Ctx, q: string | undefined): Promise<VendorOptions> {
  const auth = requireAuth(ctx);
  const rows = await repo.vendorOptions(ctx.db, { organizationId: callerOrganizationId(auth), q: q || undefined });
  return {
    items: rows.map((v) => ({ id: v.id, name: v.name, currency: v.currency, blocked: v.status === 'blocked' })),
  };
}

/** The vendor filter of the requests list: vendors of the organizations in the caller's requests.read.scope. */
export async function vendorFilterOptions(ctx: Ctx, organizationId: string | undefined): Promise<VendorFilterOptions> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'requests.read.scope', { organizationId: vendors.organizationId });
  return { items: await repo.vendorFilterOptions(ctx.db, { scope, organizationId }) };
}

export async function conversions(
  db: Db,
  params: { amount: string; currency: string; orgCurrency: string; date: Date | string },
) {
  const group = await groupCurrency(db);
  const toOrg = { amount: params.amount, from: params.currency, to: params.orgCurrency };
  const toGroup = { amount: params.amount, from: params.currency, to: group };
  const org = assertStorable(await convert(db, { ...toOrg, date: params.date }), toOrg);
  const grp = assertStorable(await convert(db, { ...toGroup, date: params.date }), toGroup);
  return { org, grp, group };
}

export async function fxQuote(ctx: Ctx, query: { amount: string; currency: string; date?: string }): Promise<FxQuote> {
  const auth = requireAuth(ctx);
  const org = await callerOrganization(ctx.db, auth);
  const c = await conversions(ctx.db, {
    amount: query.amount,
    currency: query.currency,
    orgCurrency: org.currency,
    date: query.date ?? ctx.now,
  });
  return {
    amount: toAmountString(query.amount),
    currency: query.currency,
    rate: c.org.rate,
    amountOrg: c.org.amount,
    orgCurrency: org.currency,
    groupRate: c.grp.rate,
    amountGroup: c.grp.amount,
    groupCurrency: c.group,
    period: c.org.period ?? c.grp.period,
  };
}
