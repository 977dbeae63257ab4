// The policy rule engine: pure functions, no database. The same code runs at submission
// (policy-check.ts), on the form as the user types (POST /api/policies/evaluate) and in the
// simulation over past requests (POST /api/policies/simulate). Whatever a rule needs beyond
// the request itself (attachments, the month's spend, earlier look-alike requests) is gathered
// beforehand by the caller (policies.repository.ts `gatherFacts`).
import Decimal from 'decimal.js';
import { serverFormat } from '@outlay/contracts/format';
import {
  isConditionGroup,
  NUMERIC_POLICY_FIELDS,
  type PolicyAction,
  type PolicyCondition,
  type PolicyConditionGroup,
  type PolicyField,
  type PolicyKind,
  type PolicyParams,
} from '@outlay/contracts';

export interface RuleDef {
  id: string;
  version: number;
  name: string;
  organizationId: string | null;
  kind: PolicyKind;
  action: PolicyAction;
  priority: number;
  active: boolean;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  params: PolicyParams;
  conditions: PolicyConditionGroup | null;
  createdAt?: Date;
}

/** The request as the rules see it (a draft form, a request at submission, or a past request). */
export interface Subject {
  id: string | null;
  organizationId: string;
  departmentId: string | null;
  requesterId: string;
  requesterRole: string;
  categoryId: string | null;
  categoryName: string | null;
  vendorId: string | null;
  vendorName: string | null;
  kind: string;
  title: string;
  description: string | null;
  justification: string | null;
  /** Null when the form has no usable amount yet: amount rules do not apply. */
  amount: string | null;
  currency: string;
  amountOrg: string | null;
  orgCurrency: string;
  expenseDate: string | null;
}

/** The request as the rules see it, from a stored row and the names and role looked up beside it. */
export function subjectFromRow(
  r: {
    id: string;
    organizationId: string;
    departmentId: string | null;
    requesterId: string;
    categoryId: string | null;
    vendorId: string | null;
    kind: string;
    title: string;
    description: string | null;
    justification: string | null;
    amount: string;
    currency: string;
    amountOrg: string | null;
    orgCurrency: string;
    expenseDate: string | null;
  },
  extra: { requesterRole: string; categoryName: string | null; vendorName: string | null },
): Subject {
  return {
    id: r.id,
    organizationId: r.organizationId,
    departmentId: r.departmentId,
    requesterId: r.requesterId,
    requesterRole: extra.requesterRole,
    categoryId: r.categoryId,
    categoryName: extra.categoryName,
    vendorId: r.vendorId,
    vendorName: extra.vendorName,
    kind: r.kind,
    title: r.title,
    description: r.description,
    justification: r.justification,
    amount: r.amount,
    currency: r.currency,
    amountOrg: r.amountOrg,
    orgCurrency: r.orgCurrency,
    expenseDate: r.expenseDate,
  };
}

export interface DuplicateCandidate {
  id: string;
  reference: string;
  title: string;
  description: string | null;
  vendorId: string | null;
  amount: string;
  currency: string;
  /** expenseDate, else the submission date (YYYY-MM-DD). */
  date: string;
}

export interface Facts {
  /** The moment of the check (submission, now, or the past request's submission). */
  asOf: Date;
  attachmentCount: number;
  /** Per category id: the requester's pending + approved spend this calendar month (org currency), without this request. */
  monthSpendByCategory: Map<string, string>;
  /** The requester's other submitted, non-cancelled requests near the date. */
  duplicates: DuplicateCandidate[];
}

export interface Finding {
  ruleId: string;
  version: number;
  ruleName: string;
  kind: string;
  action: PolicyAction;
  message: string;
}

export const DEFAULT_SIMILARITY = 0.5;
const DAY_MS = 86_400_000;

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** In force for this request at this moment: active, the request's organization (or group-wide), within the effective dates. */
export function inForce(rule: RuleDef, organizationId: string, asOf: Date, { ignoreActive = false } = {}): boolean {
  if (!ignoreActive && !rule.active) return false;
  if (rule.organizationId !== null && rule.organizationId !== organizationId) return false;
  const day = isoDay(asOf);
  if (rule.effectiveFrom && day < rule.effectiveFrom) return false;
  if (rule.effectiveTo && day > rule.effectiveTo) return false;
  return true;
}

/** Lower priority first; ties by creation then name, so the order never changes between runs. */
export function byPriority(a: RuleDef, b: RuleDef): number {
  return (
    a.priority - b.priority ||
    (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0) ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id)
  );
}

// --- conditions ------------------------------------------------------------------------------

function fieldValue(s: Subject, field: PolicyField): string | null {
  switch (field) {
    case 'amount':
      return s.amount;
    case 'amountOrg':
      return s.amountOrg;
    case 'currency':
      return s.currency;
    case 'categoryId':
      return s.categoryId;
    case 'departmentId':
      return s.departmentId;
    case 'vendorId':
      return s.vendorId;
    case 'kind':
      return s.kind;
    case 'title':
      return s.title;
    case 'description':
      return s.description;
    case 'expenseDate':
      return s.expenseDate;
    case 'requesterRole':
      return s.requesterRole;
    case 'organizationId':
      return s.organizationId;
  }
}

function listOf(value: PolicyCondition['value']): string[] {
  if (Array.isArray(value)) return value.map(String);
  return String(value)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function decimalOrNull(x: string | number | null): Decimal | null {
  if (x === null) return null;
  try {
    const d = new Decimal(String(x).trim());
    return d.isFinite() ? d : null;
  } catch {
    return null;
  }
}

export function conditionHolds(s: Subject, c: PolicyCondition): boolean {
  const actual = fieldValue(s, c.field);
  const numeric = NUMERIC_POLICY_FIELDS.includes(c.field);
  if (c.operator === 'in' || c.operator === 'not_in') {
    const list = listOf(c.value).map((x) => x.toLowerCase());
    const hit = actual !== null && list.includes(actual.toLowerCase());
    return c.operator === 'in' ? hit : !hit;
  }
  if (c.operator === 'contains') {
    return (
      actual !== null &&
      actual.toLowerCase().includes(String(Array.isArray(c.value) ? c.value.join(' ') : c.value).toLowerCase())
    );
  }
  if (actual === null) return c.operator === 'neq';
  let cmp: number;
  if (numeric) {
    const a = decimalOrNull(actual);
    const b = decimalOrNull(Array.isArray(c.value) ? null : c.value);
    if (!a || !b) return c.operator === 'neq';
    cmp = a.comparedTo(b);
  } else {
    const b = String(Array.isArray(c.value) ? c.value.join(',') : c.value);
    if (c.operator === 'eq' || c.operator === 'neq') cmp = actual.toLowerCase() === b.toLowerCase() ? 0 : 1;
    else cmp = actual < b ? -1 : actual > b ? 1 : 0;
  }
  switch (c.operator) {
    case 'eq':
      return cmp === 0;
    case 'neq':
      return cmp !== 0;
    case 'gt':
      return cmp > 0;
    case 'gte':
      return cmp >= 0;
    case 'lt':
      return cmp < 0;
    case 'lte':
      return cmp <= 0;
  }
}

/** AND: every item holds (an empty group holds); OR: at least one item holds. */
export function groupHolds(s: Subject, g: PolicyConditionGroup): boolean {
  const results = g.items.map((item) => (isConditionGroup(item) ? groupHolds(s, item) : conditionHolds(s, item)));
  if (results.length === 0) return true;
  return g.op === 'and' ? results.every(Boolean) : results.some(Boolean);
}

// --- similarity ----------------------------------------------------------------------------

/** Lower-case words of two characters or more (letters and digits), as a set. */
export function tokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .split(/[^a-z0-9]+/)
      .filter((t) => t.length >= 2),
  );
}

/**
 * Jaccard similarity of the normalized word sets of two texts (|A ∩ B| / |A ∪ B|), 0..1. Two
 * texts without any word are identical (1). The duplicate rule compares title + description and
 * calls them similar at 0.5 or more unless the rule says otherwise.
 */
export function similarity(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  if (x.size === 0 && y.size === 0) return 1;
  let common = 0;
  for (const t of x) if (y.has(t)) common++;
  return common / (x.size + y.size - common);
}

// --- rules ---------------------------------------------------------------------------------

/** An amount as people read it in a finding: "$1,234.50" (the shared formatters, en-US). */
function fmt(d: Decimal, currency: string): string {
  return serverFormat.money(d.toFixed(), currency);
}

function dayDiff(a: string, b: string): number {
  return Math.round(Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS);
}

/** The words of the finding when the rule's own test holds for the request, otherwise null. */
function kindMessage(rule: RuleDef, s: Subject, f: Facts): string | null {
  const p = rule.params;
  switch (rule.kind) {
    case 'category_limit_request': {
      if (p.categoryId && p.categoryId !== s.categoryId) return null;
      if (!p.limit) return null;
      // The limit is in the organization's currency, unless the rule names the request's own currency.
      const inOwn = p.currency && p.currency === s.currency && p.currency !== s.orgCurrency;
      const raw = inOwn ? s.amount : s.amountOrg;
      const cur = inOwn ? s.currency : s.orgCurrency;
      const amount = decimalOrNull(raw);
      if (!amount) return null;
      const limit = new Decimal(p.limit);
      if (amount.lte(limit)) return null;
      const what = s.categoryName ? `the ${s.categoryName} limit` : 'the limit';
      return `${fmt(amount, cur)} is above ${what} of ${fmt(limit, cur)} per request`;
    }
    case 'category_limit_month': {
      if (p.categoryId && p.categoryId !== s.categoryId) return null;
      if (!p.limit || !s.categoryId) return null;
      const amount = decimalOrNull(s.amountOrg);
      if (!amount) return null;
      const before = new Decimal(f.monthSpendByCategory.get(s.categoryId) ?? '0');
      const total = before.plus(amount);
      const limit = new Decimal(p.limit);
      if (total.lte(limit)) return null;
      const what = s.categoryName ? `${s.categoryName} spend` : 'Spend in this category';
      return `${what} this month would reach ${fmt(total, s.orgCurrency)} (${fmt(before, s.orgCurrency)} already pending or approved), above the monthly limit of ${fmt(limit, s.orgCurrency)}`;
    }
    case 'receipt_required': {
      if (p.categoryId && p.categoryId !== s.categoryId) return null;
      if (!p.above || f.attachmentCount > 0) return null;
      const amount = decimalOrNull(s.amountOrg);
      if (!amount) return null;
      const above = new Decimal(p.above);
      if (amount.lte(above)) return null;
      return `A receipt is required above ${fmt(above, s.orgCurrency)}: attach one`;
    }
    case 'blocked_vendor': {
      if (!s.vendorId || !(p.vendorIds ?? []).includes(s.vendorId)) return null;
      return `${s.vendorName ?? 'This vendor'} is blocked by policy`;
    }
    case 'weekend_spend': {
      if (!s.expenseDate || !/^\d{4}-\d{2}-\d{2}$/.test(s.expenseDate)) return null;
      const day = new Date(`${s.expenseDate}T00:00:00Z`).getUTCDay();
      if (day !== 0 && day !== 6) return null;
      return `The expense date ${serverFormat.date(s.expenseDate)} is a ${day === 0 ? 'Sunday' : 'Saturday'}`;
    }
    case 'duplicate': {
      const days = p.days ?? 7;
      const threshold = p.similarity ?? DEFAULT_SIMILARITY;
      if (!s.vendorId || !s.amount) return null;
      const amount = decimalOrNull(s.amount);
      if (!amount) return null;
      const date = s.expenseDate && /^\d{4}-\d{2}-\d{2}$/.test(s.expenseDate) ? s.expenseDate : isoDay(f.asOf);
      const text = `${s.title} ${s.description ?? ''}`;
      const twin = f.duplicates.find(
        (d) =>
          d.id !== s.id &&
          d.vendorId === s.vendorId &&
          d.currency === s.currency &&
          new Decimal(d.amount).eq(amount) &&
          dayDiff(d.date, date) <= days &&
          similarity(`${d.title} ${d.description ?? ''}`, text) >= threshold,
      );
      if (!twin) return null;
      return `This looks like a duplicate of ${twin.reference} "${twin.title}" (same vendor and amount within ${serverFormat.plural(days, 'day')})`;
    }
    case 'max_age': {
      if (!p.days || !s.expenseDate || !/^\d{4}-\d{2}-\d{2}$/.test(s.expenseDate)) return null;
      const age = Math.floor(
        (Date.parse(`${isoDay(f.asOf)}T00:00:00Z`) - Date.parse(`${s.expenseDate}T00:00:00Z`)) / DAY_MS,
      );
      if (age <= p.days) return null;
      return `The expense is ${serverFormat.plural(age, 'day')} old; expenses older than ${serverFormat.plural(p.days, 'day')} are not accepted`;
    }
    case 'custom':
      return rule.name;
  }
}

/** One rule on one request: a finding, or null. Conditions (when any) must hold first. */
export function evaluateRule(rule: RuleDef, s: Subject, f: Facts): Finding | null {
  if (rule.conditions && rule.conditions.items.length > 0 && !groupHolds(s, rule.conditions)) return null;
  if (rule.kind === 'custom' && (!rule.conditions || rule.conditions.items.length === 0)) return null;
  const message = kindMessage(rule, s, f);
  if (message === null) return null;
  return { ruleId: rule.id, version: rule.version, ruleName: rule.name, kind: rule.kind, action: rule.action, message };
}

export interface Evaluation {
  findings: Finding[];
  versions: { ruleId: string; version: number }[];
  /** The refusal a submission would get (block first, then a missing justification), or null. */
  refusal: string | null;
}

export function justificationMessage(finding: Finding): string {
  return `${finding.message} — add a justification`;
}

/** Every rule in force, in priority order; findings in that order. */
export function evaluate(rules: RuleDef[], s: Subject, f: Facts): Evaluation {
  const applicable = rules.filter((r) => inForce(r, s.organizationId, f.asOf)).sort(byPriority);
  const findings: Finding[] = [];
  for (const rule of applicable) {
    const finding = evaluateRule(rule, s, f);
    if (finding) findings.push(finding);
  }
  const block = findings.find((x) => x.action === 'block');
  const justify = (s.justification ?? '').trim() === '' ? findings.find((x) => x.action === 'justify') : undefined;
  return {
    findings,
    versions: applicable.map((r) => ({ ruleId: r.id, version: r.version })),
    refusal: block ? block.message : justify ? justificationMessage(justify) : null,
  };
}

/** Words for a rule's settings, shown in the rule tables. */
export function summarize(
  rule: Pick<RuleDef, 'kind' | 'params' | 'conditions'>,
  names: { category?: string | null; vendors?: string[] } = {},
): string {
  const p = rule.params;
  // A limit without a currency is in each organization's own currency: written as a number.
  const amount = (v: string | undefined) =>
    v === undefined ? '?' : p.currency ? serverFormat.money(v, p.currency) : serverFormat.number(v);
  const cat = names.category ?? (p.categoryId ? 'one category' : 'any category');
  let words: string;
  switch (rule.kind) {
    case 'category_limit_request':
      words = `${cat}: above ${amount(p.limit)} per request`;
      break;
    case 'category_limit_month':
      words = `${cat}: above ${amount(p.limit)} per requester per month`;
      break;
    case 'receipt_required':
      words = p.categoryId
        ? `${cat}: no attachment and above ${amount(p.above)}`
        : `No attachment and above ${amount(p.above)}`;
      break;
    case 'blocked_vendor':
      words =
        names.vendors && names.vendors.length > 0
          ? `Vendors: ${names.vendors.join(', ')}`
          : serverFormat.plural((p.vendorIds ?? []).length, 'vendor');
      break;
    case 'weekend_spend':
      words = 'Expense dated on a Saturday or Sunday';
      break;
    case 'duplicate':
      words = `Same vendor and amount within ${serverFormat.plural(p.days ?? 7, 'day')}, similar text (≥ ${Math.round((p.similarity ?? DEFAULT_SIMILARITY) * 100)}%)`;
      break;
    case 'max_age':
      words = `Expense older than ${p.days === undefined ? '? days' : serverFormat.plural(p.days, 'day')}`;
      break;
    case 'custom':
      words = 'When the conditions hold';
      break;
  }
  const n = rule.conditions ? countConditions(rule.conditions) : 0;
  return n > 0 && rule.kind !== 'custom'
    ? `${words} (when ${serverFormat.plural(n, 'condition')} hold)`
    : n > 0
      ? `${words} (${serverFormat.plural(n, 'condition')})`
      : words;
}

export function countConditions(g: PolicyConditionGroup): number {
  return g.items.reduce((n, item) => n + (isConditionGroup(item) ? countConditions(item) : 1), 0);
}
