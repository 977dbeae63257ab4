// What a Copilot question asks: its kind, the period(s) in UTC (quarters and years in the fiscal
// calendar of the organizations it is about: "this quarter" at Meridian Foods is its Q3 FY 2026/27), the organizations,
// departments, categories and vendors it names, how to group and how many to show. Pure: the
// caller passes the names the person may see. A follow-up ("and last quarter?") keeps what the
// earlier questions of the conversation asked and changes only what it says itself.
import type { CopilotQuestionKind, ReportDimension, RequestStatus } from '@outlay/contracts';
import {
  fiscalPeriodStartMonth,
  fiscalQuarterLabel,
  fiscalYearLabel,
  fiscalYearOf,
  isFiscalPeriodStart,
} from '@outlay/contracts/fiscal-calendar';

export interface Named {
  id: string;
  name: string;
}

export interface Vocabulary {
  /** With the month each one's fiscal year starts in (1 when not given). */
  organizations: readonly (Named & { fiscalYearStartMonth?: number })[];
  /** The fiscal calendar of a question that names no organization (the person's reach); 1 when not given. */
  fiscalYearStartMonth?: number;
  departments: readonly Named[];
  categories: readonly Named[];
  vendors: readonly Named[];
}

/** Months, YYYY-MM, both included. */
export interface Period {
  from: string;
  to: string;
  label: string;
}

export type GroupBy = Extract<
  ReportDimension,
  'organization' | 'department' | 'category' | 'vendor' | 'month' | 'status'
>;

export interface Intent {
  kind: CopilotQuestionKind | null;
  periods: Period[];
  organizationIds: string[];
  departmentIds: string[];
  categoryIds: string[];
  vendorIds: string[];
  groupBy: GroupBy | null;
  top: number | null;
  threshold: number | null;
  measure: 'sum' | 'count' | 'average';
  statuses: RequestStatus[];
}

// --- periods --------------------------------------------------------------------------------------

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_SHORT = MONTHS.map((m) => m.slice(0, 3));

function ym(y: number, m: number): string {
  const d = new Date(Date.UTC(y, m - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${MONTHS[m - 1]![0]!.toUpperCase()}${MONTHS[m - 1]!.slice(1)} ${y}`;
}

/** Quarter `q` (1–4) of the fiscal year that starts in `fy`. */
function quarter(fy: number, q: number, start: number): Period {
  const from = ym(fy, start + (q - 1) * 3);
  const [y, m] = from.split('-').map(Number) as [number, number];
  return { from, to: ym(y, m + 2), label: fiscalQuarterLabel(from, start) };
}

/** The fiscal year starting in `fy` (the part so far when it is the current one). */
function year(fy: number, today: Date, start: number): Period {
  const from = ym(fy, start);
  const [y, m] = from.split('-').map(Number) as [number, number];
  const name = start === 1 ? String(fy) : fiscalYearLabel(fy, start);
  const now = ym(today.getUTCFullYear(), today.getUTCMonth() + 1);
  if (fiscalYearOf(now, start) === fy) return { from, to: now, label: `${name} to date` };
  return { from, to: ym(y, m + 11), label: name };
}

/** A fiscal year as people write it: "FY2026", "FY 2026/27", "FY26", "fiscal 2026" (named by the year it starts in). */
const FISCAL_YEAR = /\b(?:fy|fiscal(?: year)?|financial year)\s?'?((?:20)?\d\d)(?:\s?[/-]\s?(?:20)?\d\d)?\b/g;

/**
 * Every period the text names, in the order it names them. Quarters and years follow the fiscal
 * calendar starting in month `start` (1: the calendar year); a bare "2026" is the calendar year.
 */
export function periodsIn(text: string, today: Date, start = 1): Period[] {
  const t = text.toLowerCase();
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  const now = ym(y, m);
  const fy = fiscalYearOf(now, start);
  const q = Math.floor(((m - start + 12) % 12) / 3) + 1;
  const found: { at: number; period: Period }[] = [];
  const add = (re: RegExp, make: (match: RegExpExecArray) => Period | null) => {
    re.lastIndex = 0;
    for (let match = re.exec(t); match; match = re.exec(t)) {
      if (found.some((f) => f.at === match!.index)) continue;
      const period = make(match);
      if (period) found.push({ at: match.index, period });
    }
  };
  const quarterBack = (n: number) => {
    const index = fy * 4 + (q - 1) - n;
    return quarter(Math.floor(index / 4), (index % 4) + 1, start);
  };
  add(/\b(?:this|current) month\b|\bmonth to date\b|\bmtd\b/g, () => ({
    from: ym(y, m),
    to: ym(y, m),
    label: monthName(ym(y, m)),
  }));
  add(/\b(?:last|previous|past) month\b/g, () => ({
    from: ym(y, m - 1),
    to: ym(y, m - 1),
    label: monthName(ym(y, m - 1)),
  }));
  add(/\b(?:this|current) (?:fiscal |financial )?quarter\b|\bquarter to date\b|\bqtd\b/g, () => quarterBack(0));
  add(/\b(?:last|previous|past) (?:fiscal |financial )?quarter\b/g, () => quarterBack(1));
  add(/\b(?:this|current) calendar year\b/g, () => year(y, today, 1));
  add(/\b(?:last|previous|past) calendar year\b/g, () => year(y - 1, today, 1));
  add(/\b(?:this|current) (?:fiscal |financial )?year\b|\byear to date\b|\bytd\b/g, () => year(fy, today, start));
  add(/\b(?:last|previous|past) (?:fiscal |financial )?year\b/g, () => year(fy - 1, today, start));
  add(/\b(?:last|past|previous) (\d{1,2}) months\b/g, (x) => {
    const n = Math.min(Math.max(Number(x[1]), 1), 36);
    return { from: ym(y, m - n + 1), to: ym(y, m), label: `the last ${n} months` };
  });
  add(FISCAL_YEAR, (x) => year(x[1]!.length === 2 ? 2000 + Number(x[1]) : Number(x[1]), today, start));
  add(/\bq([1-4])(?:\s*(?:of\s*)?(?:fy\s?)?(20\d\d))?\b/g, (x) =>
    quarter(x[2] ? Number(x[2]) : fy, Number(x[1]), start),
  );
  add(new RegExp(String.raw`\b(${MONTHS.join('|')}|${MONTH_SHORT.join('|')})\b(?:\s+(20\d\d))?`, 'g'), (x) => {
    // "may" only as a month when a year follows.
    if (x[1] === 'may' && !x[2]) return null;
    const idx = (MONTHS.indexOf(x[1]!) >= 0 ? MONTHS.indexOf(x[1]!) : MONTH_SHORT.indexOf(x[1]!)) + 1;
    let yy = x[2] ? Number(x[2]) : y;
    if (!x[2] && idx > m) yy -= 1;
    const month = ym(yy, idx);
    return { from: month, to: month, label: monthName(month) };
  });
  add(/(?<![-\d/])\b(20\d\d)\b(?![-/])/g, (x) => {
    // A year after a quarter, a month or "FY" belongs to it.
    const before = t.slice(Math.max(0, x.index - 14), x.index);
    if (
      new RegExp(
        String.raw`(?:q[1-4]|${MONTHS.join('|')}|${MONTH_SHORT.join('|')}|fy|fiscal|fiscal year|financial year)\s*(?:of\s*)?(?:fy\s?)?$`,
      ).test(before)
    )
      return null;
    return year(Number(x[1]), today, 1);
  });
  return found.sort((a, b) => a.at - b.at).map((f) => f.period);
}

/** The period just before `p`, as long as it (a fiscal quarter or year in the calendar starting in `start`). */
export function previousPeriod(p: Period, start = 1): Period {
  const [fy, fm] = p.from.split('-').map(Number) as [number, number];
  const [ty, tm] = p.to.split('-').map(Number) as [number, number];
  const n = (ty - fy) * 12 + (tm - fm) + 1;
  const from = ym(fy, fm - n);
  const to = ym(fy, fm - 1);
  if (n === 1) return { from, to, label: monthName(from) };
  if (n === 3 && isFiscalPeriodStart('quarter', from, start))
    return { from, to, label: fiscalQuarterLabel(from, start) };
  if (n === 3 && (fm - 1) % 3 === 0) return { from, to, label: fiscalQuarterLabel(from) };
  if (n === 12 && isFiscalPeriodStart('year', from, start))
    return { from, to, label: start === 1 ? from.slice(0, 4) : fiscalYearLabel(fiscalYearOf(from, start), start) };
  if (fm === 1 && n === 12) return { from, to, label: from.slice(0, 4) };
  // A year to date is compared with the same months of the year before.
  if (p.label.endsWith('to date') && fiscalPeriodStartMonth('year', p.from, start) === p.from) {
    const before = fiscalYearOf(p.from, start) - 1;
    return {
      from: ym(fy - 1, fm),
      to: ym(ty - 1, tm),
      label: `${start === 1 ? before : fiscalYearLabel(before, start)}, same months`,
    };
  }
  if (fm === 1 && p.label.endsWith('to date'))
    return { from: ym(fy - 1, 1), to: ym(ty - 1, tm), label: `${fy - 1}, same months` };
  return { from, to, label: `${monthName(from)} – ${monthName(to)}` };
}

/**
 * The fiscal calendar a question's periods follow: the organizations it names, when they share
 * one; the person's default when it names none; else the calendar year.
 */
export function fiscalStartOf(organizationIds: readonly string[], vocabulary: Vocabulary): number {
  if (organizationIds.length === 0) return vocabulary.fiscalYearStartMonth ?? 1;
  const starts = new Set(
    organizationIds.map((id) => vocabulary.organizations.find((o) => o.id === id)?.fiscalYearStartMonth ?? 1),
  );
  return starts.size === 1 ? [...starts][0]! : 1;
}

// --- names ----------------------------------------------------------------------------------------

export function words(s: string): string[] {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function indexOfPhrase(haystack: string[], phrase: string[], taken: Set<number> = new Set()): number {
  outer: for (let i = 0; i + phrase.length <= haystack.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (taken.has(i + j)) continue outer;
    for (let j = 0; j < phrase.length; j++) {
      const h = haystack[i + j]!;
      const p = phrase[j]!;
      if (h !== p && !(p.length > 3 && (h === `${p}s` || `${h}s` === p))) continue outer;
    }
    return i;
  }
  return -1;
}

/**
 * The names said in the question. A whole name wins; a name's own word also counts when no other
 * name shares it ("Energy" for Meridian Energy). Words taken by one name are not read again.
 */
function namesIn(
  said: string[],
  taken: Set<number>,
  names: readonly Named[],
  original: string,
  shortWords = true,
  notShort: ReadonlySet<string> = new Set(),
): string[] {
  const out = new Set<string>();
  const free = (i: number, n: number) => Array.from({ length: n }, (_, k) => i + k).every((k) => !taken.has(k));
  const take = (i: number, n: number) => Array.from({ length: n }, (_, k) => taken.add(i + k));
  const sorted = [...names].sort((a, b) => words(b.name).length - words(a.name).length);
  for (const n of sorted) {
    const phrase = words(n.name);
    if (phrase.length === 0) continue;
    // Two letters ("IT") only when written in capitals, not the word "it".
    if (phrase.join('').length <= 2 && !new RegExp(String.raw`\b${n.name}\b`).test(original)) continue;
    const at = indexOfPhrase(said, phrase, taken);
    if (at >= 0 && free(at, phrase.length)) {
      out.add(n.id);
      take(at, phrase.length);
    }
  }
  if (shortWords) {
    const counts = new Map<string, number>();
    for (const n of names) for (const w of new Set(words(n.name))) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const n of names) {
      if (out.has(n.id)) continue;
      for (const w of words(n.name)) {
        if (w.length < 4 || counts.get(w) !== 1 || COMMON.has(w) || notShort.has(w)) continue;
        const at = said.indexOf(w);
        if (at >= 0 && !taken.has(at)) {
          out.add(n.id);
          taken.add(at);
          break;
        }
      }
    }
  }
  // Several entries may share a name (a department called Operations in every organization).
  const ids = new Set(out);
  for (const n of names) if ([...out].some((id) => names.find((x) => x.id === id)?.name === n.name)) ids.add(n.id);
  return [...ids];
}

/** Words of the questions themselves, never read as part of a name. */
const COMMON = new Set([
  'group',
  'services',
  'service',
  'spend',
  'spent',
  'cost',
  'costs',
  'budget',
  'budgets',
  'payroll',
  'vendor',
  'vendors',
  'category',
  'categories',
  'travel',
  'supply',
  'partners',
  'consulting',
  'data',
  'security',
  'cloud',
  'office',
  'solutions',
  'trading',
  'company',
  'month',
  'year',
  'quarter',
  'top',
  'what',
  'which',
  'this',
  'last',
]);

// --- kinds ----------------------------------------------------------------------------------------

const STATUS_WORDS: [RegExp, RequestStatus[]][] = [
  [/\bdrafts?\b/, ['draft']],
  [/\bpending\b|\bwaiting\b|\bin approval\b|\bopen\b/, ['pending', 'info_requested']],
  [/\bapproved\b/, ['approved']],
  [/\brejected\b|\bdeclined\b/, ['rejected']],
  [/\bpaid\b/, ['paid']],
  [/\bcancell?ed\b/, ['cancelled']],
];

function groupByIn(t: string): GroupBy | null {
  const m =
    /\b(?:by|per|each|across|which|top\s*\d*|largest|biggest)\s+(?:\w+\s+)?(organi[sz]ations?|subsidiar(?:y|ies)|compan(?:y|ies)|entit(?:y|ies)|departments?|categor(?:y|ies)|vendors?|suppliers?|months?|monthly|status(?:es)?)\b/.exec(
      t,
    );
  const w =
    m?.[1] ?? /\b(organi[sz]ations|subsidiaries|companies|departments|categories|vendors|suppliers)\b/.exec(t)?.[1];
  if (!w) return null;
  if (/^(organi|subsid|compan|entit)/.test(w)) return 'organization';
  if (w.startsWith('depart')) return 'department';
  if (w.startsWith('categor')) return 'category';
  if (w.startsWith('vendor') || w.startsWith('supplier')) return 'vendor';
  if (w.startsWith('month')) return 'month';
  return 'status';
}

function kindOf(t: string): CopilotQuestionKind | null {
  if (
    /\b(?:wait\w*|pending|open)\b.*\b(?:my|me)\b|\bmy (?:approvals?|queue)\b|\bfor me to (?:approve|decide)\b|\bi (?:need|have) to approve\b|\bawait\w* my\b/.test(
      t,
    )
  )
    return 'queue';
  if (
    /\bcycle times?\b|\bhow long\b.*\bapprov|\bapproval times?\b|\bturnaround\b|\btime to (?:approve|decide)\b/.test(t)
  )
    return 'cycle';
  if (/\bpayroll\b|\bsalar(?:y|ies)\b|\bwages?\b/.test(t)) return 'payroll';
  if (/\bbudgets?\b|\bover budget\b/.test(t) && !/\bspen[dt]\b/.test(t)) return 'budgets';
  if (/\bcompare\b|\bcompared\b|\bvs\.?\b|\bversus\b|\bagainst\b|\bchange from\b/.test(t)) return 'compare';
  if (/\bhow many\b|\bnumber of\b|\bcount\b|\bby status\b|\bstatus(?:es)?\b/.test(t)) return 'status';
  if (/\btop\b|\blargest\b|\bbiggest\b|\bmost\b|\bhighest\b/.test(t)) return 'top';
  if (/\bspen[dt]\b|\bspending\b|\bcost\b|\bexpens\w*\b|\bhow much\b|\btotal\b|\baverage\b/.test(t)) return 'spend';
  return null;
}

const EMPTY: Intent = {
  kind: null,
  periods: [],
  organizationIds: [],
  departmentIds: [],
  categoryIds: [],
  vendorIds: [],
  groupBy: null,
  top: null,
  threshold: null,
  measure: 'sum',
  statuses: [],
};

/**
 * What one question says by itself (fields it does not mention stay empty). Its periods follow
 * the calendar of the organizations it names, or of `context` (the conversation's) when it names none.
 */
export function readQuestion(
  question: string,
  vocabulary: Vocabulary,
  today: Date,
  context: readonly string[] = [],
): Intent {
  const t = question.toLowerCase().replace(/\s+/g, ' ').trim();
  const said = words(question);
  const taken = new Set<number>();
  // A category's or department's word ("software") is that category, not a vendor that has it in its name.
  const otherWords = new Set([...vocabulary.categories, ...vocabulary.departments].flatMap((n) => words(n.name)));
  const organizationIds = namesIn(said, taken, vocabulary.organizations, question);
  const vendorIds = namesIn(said, taken, vocabulary.vendors, question, true, otherWords);
  const departmentIds = namesIn(said, taken, vocabulary.departments, question, false);
  const categoryIds = namesIn(said, taken, vocabulary.categories, question, false);
  const topMatch = /\btop\s*(\d{1,3})\b|\b(\d{1,3})\s+(?:largest|biggest)\b/.exec(t);
  const threshold = /(\d{1,3}(?:\.\d+)?)\s*(?:%|percent\b)/.exec(t);
  const statuses = STATUS_WORDS.flatMap(([re, s]) => (re.test(t) ? s : []));
  return {
    ...EMPTY,
    kind: kindOf(t),
    periods: periodsIn(t, today, fiscalStartOf(organizationIds.length ? organizationIds : context, vocabulary)),
    organizationIds,
    departmentIds,
    categoryIds,
    vendorIds,
    groupBy: groupByIn(t),
    top: topMatch ? Number(topMatch[1] ?? topMatch[2]) : /\btop\b/.test(t) ? 5 : null,
    threshold: threshold ? Number(threshold[1]) : /\bover budget\b|\bover(?:spent|run)\b/.test(t) ? 100 : null,
    measure: /\baverage\b|\bavg\b|\bmean\b/.test(t)
      ? 'average'
      : /\bhow many\b|\bnumber of\b|\bcount\b/.test(t)
        ? 'count'
        : 'sum',
    statuses,
  };
}

/** A question that leans on the one before: "and last quarter?", "what about Travel?", "same for vendors". */
export function isFollowUp(question: string, own: Intent): boolean {
  const t = question.toLowerCase().trim();
  if (/^(?:and|what about|how about|same (?:for|but)|now|only|just|but|then|also|instead)\b/.test(t)) return true;
  return (
    own.kind === null &&
    (own.periods.length > 0 ||
      own.organizationIds.length + own.departmentIds.length + own.categoryIds.length + own.vendorIds.length > 0 ||
      own.groupBy !== null)
  );
}

/**
 * The conversation's questions, oldest first, read into one intent: each follow-up keeps the
 * intent before it and replaces what it names itself (a new period, new names of a kind, a new
 * grouping); a question that is not a follow-up starts afresh.
 */
export function resolveIntent(questions: readonly string[], vocabulary: Vocabulary, today: Date): Intent {
  let current: Intent = EMPTY;
  for (const q of questions) {
    const own = readQuestion(q, vocabulary, today, current.organizationIds);
    if (current.kind !== null && isFollowUp(q, own)) {
      current = {
        kind: own.kind && own.kind !== 'spend' ? own.kind : current.kind,
        periods: own.periods.length ? own.periods : current.periods,
        organizationIds: own.organizationIds.length ? own.organizationIds : current.organizationIds,
        departmentIds: own.departmentIds.length ? own.departmentIds : current.departmentIds,
        categoryIds: own.categoryIds.length ? own.categoryIds : current.categoryIds,
        vendorIds: own.vendorIds.length ? own.vendorIds : current.vendorIds,
        groupBy: own.groupBy ?? current.groupBy,
        top: own.top ?? current.top,
        threshold: own.threshold ?? current.threshold,
        measure: own.measure !== 'sum' ? own.measure : current.measure,
        statuses: own.statuses.length ? own.statuses : current.statuses,
      };
    } else {
      // A fresh question's periods follow its own names, not the conversation's.
      current =
        own.organizationIds.length === 0 && current.organizationIds.length > 0
          ? readQuestion(q, vocabulary, today)
          : own;
    }
  }
  return current;
}
