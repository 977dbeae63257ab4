// Plain-word filters of a search ("travel over 500 last month in Logistics"), read without the
// database: the caller passes the organizations and categories a word may name.
import { REQUEST_STATUS_VALUES, type RequestStatus } from '@outlay/contracts';
import { parseMoney, toAmountString } from '@outlay/contracts/money';

export interface Named {
  id: string;
  name: string;
  code: string;
}

export interface WordFilters {
  /** The words left once the filter words are taken out (null when none are left). */
  text: string | null;
  /** The words other records are matched against: the text plus any organization or category word. */
  words: string | null;
  status: RequestStatus | null;
  organization: Named | null;
  category: Named | null;
  from: string | null;
  to: string | null;
  minAmount: string | null;
  maxAmount: string | null;
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'in',
  'at',
  'for',
  'of',
  'on',
  'by',
  'with',
  'from',
  'to',
  'and',
  'or',
  'all',
  'show',
  'me',
  'find',
  'request',
  'requests',
  'expense',
  'expenses',
  'spend',
  'spending',
  'costing',
  'cost',
  'costs',
  'amount',
  'that',
  'which',
  'were',
  'was',
  'is',
]);

const STATUS_WORDS: Record<string, RequestStatus> = {
  draft: 'draft',
  drafts: 'draft',
  pending: 'pending',
  waiting: 'pending',
  approved: 'approved',
  rejected: 'rejected',
  declined: 'rejected',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  paid: 'paid',
};

const NUMBER = String.raw`(?:[$€£¥]\s*)?(\d[\d,]*(?:\.\d+)?)\s*(k|m)?(?:\s*(?:usd|eur|gbp|aed|dollars?|euros?|pounds?))?`;
const MIN_WORDS = String.raw`over|above|more than|greater than|at least|min(?:imum)?|>=?`;
const MAX_WORDS = String.raw`under|below|less than|at most|up to|max(?:imum)?|<=?`;

function amountOf(digits: string, suffix: string | undefined): string | null {
  const plain = digits.replace(/,/g, '');
  if (!/^\d{1,15}(\.\d{1,6})?$/.test(plain)) return null;
  const factor = suffix?.toLowerCase() === 'k' ? 1_000 : suffix?.toLowerCase() === 'm' ? 1_000_000 : 1;
  return toAmountString(parseMoney(plain).times(factor));
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utcDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

/** [from, to] of a period named in words, in UTC calendar days relative to `now`. */
function periodOf(phrase: string, now: Date): [string, string] | null {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const today = utcDay(y, m, d);
  const weekday = (today.getUTCDay() + 6) % 7; // Monday 0
  const p = phrase.replace(/\s+/g, ' ');
  const lastDays = /^(?:last|past) (\d{1,3}) days?$/.exec(p);
  if (lastDays) return [iso(utcDay(y, m, d - Number(lastDays[1]) + 1)), iso(today)];
  switch (p) {
    case 'today':
      return [iso(today), iso(today)];
    case 'yesterday':
      return [iso(utcDay(y, m, d - 1)), iso(utcDay(y, m, d - 1))];
    case 'this week':
      return [iso(utcDay(y, m, d - weekday)), iso(today)];
    case 'last week':
      return [iso(utcDay(y, m, d - weekday - 7)), iso(utcDay(y, m, d - weekday - 1))];
    case 'this month':
      return [iso(utcDay(y, m, 1)), iso(today)];
    case 'last month':
      return [iso(utcDay(y, m - 1, 1)), iso(utcDay(y, m, 0))];
    case 'this quarter': {
      const q = m - (m % 3);
      return [iso(utcDay(y, q, 1)), iso(today)];
    }
    case 'last quarter': {
      const q = m - (m % 3);
      return [iso(utcDay(y, q - 3, 1)), iso(utcDay(y, q, 0))];
    }
    case 'this year':
      return [iso(utcDay(y, 0, 1)), iso(today)];
    case 'last year':
      return [iso(utcDay(y - 1, 0, 1)), iso(utcDay(y - 1, 11, 31))];
    default:
      return null;
  }
}

const PERIODS = String.raw`today|yesterday|(?:this|last) (?:week|month|quarter|year)|(?:last|past) \d{1,3} days?`;

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
const singular = (w: string) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w);

/**
 * The organization a word or phrase names: its whole name, or a word of its name no other
 * organization shares ("Logistics" for Meridian Logistics, not "Meridian").
 */
function findNamed(tokens: string[], items: Named[], used: Set<number>): { item: Named; at: number[] } | null {
  // Whole names first, longest first ("office supplies" before "office").
  const byLength = [...items].sort((a, b) => b.name.length - a.name.length);
  for (const item of byLength) {
    const words = norm(item.name).split(/\s+/);
    for (let i = 0; i + words.length <= tokens.length; i++) {
      const at = words.map((_, k) => i + k);
      if (at.some((k) => used.has(k))) continue;
      if (words.every((w, k) => singular(tokens[i + k]!) === singular(w))) return { item, at };
    }
  }
  const wordCount = new Map<string, number>();
  for (const item of items)
    for (const w of new Set(norm(item.name).split(/\s+/).map(singular))) wordCount.set(w, (wordCount.get(w) ?? 0) + 1);
  for (let i = 0; i < tokens.length; i++) {
    if (used.has(i) || STOP_WORDS.has(tokens[i]!)) continue;
    const t = singular(tokens[i]!);
    if (t.length < 3 || wordCount.get(t) !== 1) continue;
    const item = items.find((it) => norm(it.name).split(/\s+/).map(singular).includes(t));
    if (item) return { item, at: [i] };
  }
  return null;
}

/**
 * Reads the filter words out of a search: amounts ("over 500", "under 2k", "between 100 and
 * 300", in the group currency), periods ("last month", "this year", "last 30 days", by the
 * request's date), a status ("pending", "paid"), an organization (a word naming one) or else a
 * category. What is left is the text searched for.
 */
export function readWords(q: string, context: { now: Date; organizations: Named[]; categories: Named[] }): WordFilters {
  let rest = ` ${norm(q)} `;
  let minAmount: string | null = null;
  let maxAmount: string | null = null;
  let from: string | null = null;
  let to: string | null = null;

  rest = rest.replace(
    new RegExp(String.raw`\sbetween\s+${NUMBER}\s+and\s+${NUMBER}(?=\s)`, 'i'),
    (_m, a, ka, b, kb) => {
      minAmount = amountOf(a, ka);
      maxAmount = amountOf(b, kb);
      return ' ';
    },
  );
  rest = rest.replace(new RegExp(String.raw`\s(?:${MIN_WORDS})\s*${NUMBER}(?=\s)`, 'i'), (_m, a, k) => {
    minAmount = amountOf(a, k);
    return ' ';
  });
  rest = rest.replace(new RegExp(String.raw`\s(?:${MAX_WORDS})\s*${NUMBER}(?=\s)`, 'i'), (_m, a, k) => {
    maxAmount = amountOf(a, k);
    return ' ';
  });
  rest = rest.replace(
    new RegExp(String.raw`\s(?:(?:in|from|during|of|since)\s+)?(${PERIODS})(?=\s)`, 'i'),
    (_m, phrase: string) => {
      const period = periodOf(phrase, context.now);
      if (!period) return ` ${phrase} `;
      [from, to] = period;
      return ' ';
    },
  );

  const tokens = rest
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const used = new Set<number>();
  let status: RequestStatus | null = null;
  tokens.forEach((t, i) => {
    const s = STATUS_WORDS[t];
    if (s && !status && REQUEST_STATUS_VALUES.includes(s)) {
      status = s;
      used.add(i);
    }
  });
  const org = findNamed(tokens, context.organizations, used);
  if (org) org.at.forEach((i) => used.add(i));
  const cat = findNamed(tokens, context.categories, used);
  if (cat) cat.at.forEach((i) => used.add(i));

  const left = tokens.filter((t, i) => !used.has(i) && !STOP_WORDS.has(t));
  const named = tokens.filter((_t, i) => (org?.at.includes(i) ?? false) || (cat?.at.includes(i) ?? false));
  // A search made only of filter words still finds other records by the words it named.
  const reference = tokens.filter((t) => /^req-?\d+$/.test(t));
  const text = left.length > 0 ? left.join(' ') : null;
  const words = [...left, ...named].join(' ') || (reference.length > 0 ? reference.join(' ') : null);
  return {
    text,
    words,
    status,
    organization: org?.item ?? null,
    category: cat?.item ?? null,
    from,
    to,
    minAmount,
    maxAmount,
  };
}

/** The words of a text as to_tsquery may read them: letters and digits only, at most eight. */
export function textWords(text: string): string[] {
  return norm(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 8);
}

/** One word of a search as the tsquery reads it: a prefix ("taxx" → "taxx:*"), or a whole title word it resembles. */
export interface QueryWord {
  word: string;
  prefix: boolean;
}

/**
 * The terms of a search, every one of which must match: each word of the text as a prefix and,
 * with `like`, the title words it resembles as its alternatives.
 */
export function queryTerms(text: string, like?: Map<string, string[]>): QueryWord[][] {
  const safe = (w: string) => textWords(w).join('');
  return textWords(text).map((w) => [
    { word: w, prefix: true },
    ...[...new Set((like?.get(w) ?? []).map(safe))]
      .filter((a) => a && a !== w)
      .map((a) => ({ word: a, prefix: false })),
  ]);
}

/**
 * A tsquery every word of which must match, each as a prefix or, with `like`, as one of the
 * title words it resembles: "taxxi airport" → "(taxxi:* | taxi) & (airport:*)". Only letters and
 * digits reach it, so no tsquery syntax can be typed in.
 */
export function prefixQuery(text: string, like?: Map<string, string[]>): string | null {
  const terms = queryTerms(text, like);
  if (terms.length === 0) return null;
  const written = (w: QueryWord) => (w.prefix ? `${w.word}:*` : w.word);
  return terms.map((t) => (t.length > 1 ? `(${t.map(written).join(' | ')})` : written(t[0]!))).join(' & ');
}

/**
 * The same tsquery matched against titles alone: each word restricted to weight A, the title's
 * weight in the stored search vector ("(taxxi:* | taxi)" → "(taxxi:*A | taxi:A)"), so a title
 * match is tested on the stored words instead of parsing every candidate's title again.
 */
export function titleQuery(tsquery: string): string {
  return tsquery.replace(
    /([\p{L}\p{N}]+)(:\*)?/gu,
    (_m, word: string, prefix: string | undefined) => `${word}${prefix ?? ':'}A`,
  );
}

/** "REQ-000123", "req 123", "#123": the request number searched for, if the text is one. */
export function referenceOf(text: string): number | null {
  const m = /^(?:req[-\s]?|#)?0*(\d{1,12})$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
