// Reading a typed or spoken sentence ("taxi to the airport 45 dollars yesterday, client visit")
// into a draft request: amount, currency, date, category, vendor and what is left as its title.
// Pure functions: the caller passes the categories and vendors the person may use.
import { wordsToNumbers } from '@insomnia-dev/words-to-numbers';
import Decimal from 'decimal.js';
import type { ParsedExpense } from '@outlay/contracts';
import { roundToCurrency } from '@outlay/contracts/money';
import type * as Chrono from 'chrono-node';
import { onFirstUse } from '../../lib/on-first-use.ts';

const chrono = onFirstUse<typeof Chrono>('chrono-node');

export interface Named {
  id: string;
  name: string;
}

export interface ParseContext {
  /** YYYY-MM-DD. */
  today: string;
  /** The caller's organization's currency, used when the sentence names none. */
  currency: string;
  categories: readonly Named[];
  vendors: readonly Named[];
}

// --- currencies ----------------------------------------------------------------------------------

const SYMBOLS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' };
const CURRENCY_WORDS: [RegExp, string][] = [
  [/^(?:us\s?)?dollars?$|^bucks?$|^usd$/, 'USD'],
  [/^euros?$|^eur$/, 'EUR'],
  [/^pounds?(?: sterling)?$|^quid$|^gbp$|^sterling$/, 'GBP'],
  [/^dirhams?$|^aed$/, 'AED'],
  [/^yen$|^jpy$/, 'JPY'],
  [/^swiss francs?$|^francs?$|^chf$/, 'CHF'],
  [/^rupees?$|^inr$/, 'INR'],
  [/^cad$|^canadian dollars?$/, 'CAD'],
  [/^aud$|^australian dollars?$/, 'AUD'],
];
const CURRENCY_WORD = String.raw`(?:canadian dollars?|australian dollars?|swiss francs?|us\s?dollars?|dollars?|bucks?|euros?|pounds?(?: sterling)?|quid|sterling|dirhams?|yen|francs?|rupees?|usd|eur|gbp|aed|jpy|chf|inr|cad|aud)`;
const SYMBOL = String.raw`[$€£¥₹]`;
// 1,234.56 · 1234,56 · 2.5 · 45 (the k suffix after)
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?`;

function currencyOfWord(word: string): string | null {
  const w = word.toLowerCase().replace(/\s+/g, ' ').trim();
  for (const [re, code] of CURRENCY_WORDS) if (re.test(w)) return code;
  return null;
}

/** "1,234.56" → 1234.56, "12,50" → 12.50 (a comma before exactly two digits is a decimal comma), with "k" ×1000. */
function numberOf(raw: string, k: boolean): Decimal | null {
  let s = raw;
  if (/^\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  else s = s.replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const d = new Decimal(s);
  return k ? d.mul(1000) : d;
}

interface Found {
  start: number;
  end: number;
}

interface AmountFound extends Found {
  amount: Decimal;
  currency: string | null;
}

const AMOUNT_PATTERNS: {
  re: RegExp;
  read: (m: RegExpExecArray) => { amount: Decimal | null; currency: string | null };
}[] = [
  // $45, € 12,50, £2.5k
  {
    re: new RegExp(String.raw`(${SYMBOL})\s?(${NUMBER})\s?(k\b)?`, 'giu'),
    read: (m) => ({ amount: numberOf(m[2]!, !!m[3]), currency: SYMBOLS[m[1]!] ?? null }),
  },
  // USD 300, eur 12.50
  {
    re: new RegExp(String.raw`\b(usd|eur|gbp|aed|jpy|chf|inr|cad|aud)\s?(${NUMBER})\s?(k\b)?`, 'giu'),
    read: (m) => ({ amount: numberOf(m[2]!, !!m[3]), currency: currencyOfWord(m[1]!) }),
  },
  // 12 dollars 50, 45 dollars and 50 cents
  {
    re: new RegExp(
      String.raw`\b(\d+)\s?(dollars?|euros?|pounds?|bucks?)\s(?:and\s)?(\d{1,2})(?:\s(?:cents?|pence|p))?\b`,
      'giu',
    ),
    read: (m) => ({ amount: new Decimal(m[1]!).plus(new Decimal(m[3]!).div(100)), currency: currencyOfWord(m[2]!) }),
  },
  // 45 dollars, 2.5k euros, 300usd
  {
    re: new RegExp(String.raw`\b(${NUMBER})\s?(k\b)?\s?(${CURRENCY_WORD})\b`, 'giu'),
    read: (m) => ({ amount: numberOf(m[1]!, !!m[2]), currency: currencyOfWord(m[3]!) }),
  },
];

function findAmountWithCurrency(text: string): AmountFound | null {
  let best: AmountFound | null = null;
  for (const p of AMOUNT_PATTERNS) {
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m; m = p.re.exec(text)) {
      const { amount, currency } = p.read(m);
      if (!amount || amount.lte(0)) continue;
      const found = { start: m.index, end: m.index + m[0].length, amount, currency };
      // The first in the sentence; at one place, the longest reading ("12 dollars 50" over "12 dollars").
      if (!best || found.start < best.start || (found.start === best.start && found.end > best.end)) best = found;
    }
  }
  return best;
}

/** A number with no currency: "for 45", "2.5k", "12.50"; not a day of the month, an hour or a count of days. */
function findBareAmount(text: string, taken: readonly Found[]): AmountFound | null {
  const re = new RegExp(String.raw`(?<![\w/.,:-])(${NUMBER})(k\b)?(?![\w/:-]|[.,]\d)`, 'giu');
  const candidates: AmountFound[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (taken.some((t) => start < t.end && end > t.start)) continue;
    const after = text.slice(end, end + 12).toLowerCase();
    if (
      /^\s*(?:am|pm|days?|weeks?|months?|years?|nights?|hours?|h|people|persons?|pax|x|items?|pcs|units?|st|nd|rd|th|%)\b/.test(
        after,
      )
    )
      continue;
    const amount = numberOf(m[1]!, !!m[2]);
    if (!amount || amount.lte(0)) continue;
    candidates.push({ start, end, amount, currency: null });
  }
  if (candidates.length === 0) return null;
  // With several numbers ("2 nights 180"), the one with cents or a k, else the largest.
  return candidates.sort((a, b) => score(b, text) - score(a, text) || b.amount.comparedTo(a.amount))[0]!;
}

function score(f: AmountFound, text: string): number {
  const raw = text.slice(f.start, f.end);
  return /[.,]\d{2}$|k$/i.test(raw) ? 1 : 0;
}

// --- dates ---------------------------------------------------------------------------------------

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

function utcDate(iso: string): Date {
  return new Date(`${iso}T12:00:00Z`);
}

function isoOf(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(iso: string, n: number): string {
  const d = utcDate(iso);
  d.setUTCDate(d.getUTCDate() + n);
  return isoOf(d);
}

interface DateFound extends Found {
  date: string;
}

/** "last Friday" is the most recent Friday before today; "on Friday" or "Friday" the most recent on or before today. */
function findWeekday(text: string, today: string): DateFound | null {
  const re = /\b(last|this past|past|on|this)?\s*(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/i;
  const m = re.exec(text);
  if (!m) return null;
  const target = WEEKDAYS.indexOf(m[2]!.toLowerCase());
  const dow = utcDate(today).getUTCDay();
  const strict = /last|past/i.test(m[1] ?? '');
  let back = (dow - target + 7) % 7;
  if (back === 0 && strict) back = 7;
  const start = m.index + (m[0].length - m[0].trimStart().length);
  return { start, end: m.index + m[0].length, date: addDays(today, -back) };
}

/** "on the 5th": that day of this month, or of the last month when it is still to come. */
function findOrdinalDay(text: string, today: string): DateFound | null {
  const m = /\b(?:on\s)?the\s(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)/i.exec(text);
  if (!m) return null;
  const day = Number(m[1]);
  if (day < 1 || day > 31) return null;
  const t = utcDate(today);
  let y = t.getUTCFullYear();
  let mo = t.getUTCMonth();
  if (day > t.getUTCDate()) mo -= 1;
  if (mo < 0) {
    mo = 11;
    y -= 1;
  }
  const d = new Date(Date.UTC(y, mo, day, 12));
  if (d.getUTCMonth() !== (mo + 12) % 12) return null;
  return { start: m.index, end: m.index + m[0].length, date: isoOf(d) };
}

function findChronoDate(text: string, today: string): DateFound | null {
  const results = chrono().parse(text, { instant: utcDate(today), timezone: 0 });
  for (const r of results) {
    const c = r.start;
    // A time alone ("at 12.50") is not a date, nor is a length of time ("for three days").
    if (/^(?:for|in)\s/i.test(r.text)) continue;
    if (!(c.isCertain('day') || c.isCertain('weekday') || c.isCertain('month'))) continue;
    let y = c.get('year')!;
    const mo = c.get('month')!;
    const d = c.get('day')!;
    let date = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    // An expense has happened: "December 3" said in March is last December.
    if (!c.isCertain('year') && date > today) {
      y -= 1;
      date = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    }
    return { start: r.index, end: r.index + r.text.length, date };
  }
  return null;
}

/** Digits and spans replaced by spaces of the same length, so positions stay those of the sentence. */
function mask(text: string, spans: readonly Found[]): string {
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + ' '.repeat(s.end - s.start) + out.slice(s.end);
  return out;
}

// --- categories and vendors ----------------------------------------------------------------------

/** Words that point to a category by its usual name (matched against the caller's category names). */
const CATEGORY_SYNONYMS: Record<string, string[]> = {
  travel: [
    'taxi',
    'cab',
    'uber',
    'lyft',
    'flight',
    'flights',
    'airfare',
    'plane',
    'airline',
    'train',
    'rail',
    'hotel',
    'hotels',
    'airbnb',
    'lodging',
    'airport',
    'mileage',
    'rental car',
    'car rental',
    'parking',
    'toll',
    'tolls',
    'bus',
    'subway',
    'trip',
    'visa',
  ],
  meals: [
    'lunch',
    'dinner',
    'breakfast',
    'coffee',
    'coffees',
    'meal',
    'meals',
    'restaurant',
    'snacks',
    'drinks',
    'catering',
    'food',
    'pizza',
    'sandwich',
    'sandwiches',
    'brunch',
  ],
  software: [
    'software',
    'license',
    'licence',
    'licenses',
    'subscription',
    'saas',
    'app',
    'plugin',
    'hosting',
    'cloud',
    'domain',
  ],
  hardware: [
    'laptop',
    'laptops',
    'monitor',
    'monitors',
    'keyboard',
    'mouse',
    'computer',
    'phone',
    'headset',
    'printer',
    'tablet',
    'server',
    'dock',
    'docking station',
    'cable',
    'cables',
  ],
  'office supplies': [
    'paper',
    'pens',
    'stationery',
    'toner',
    'ink',
    'notebooks',
    'folders',
    'staples',
    'office supplies',
    'whiteboard',
    'markers',
  ],
  training: [
    'training',
    'course',
    'courses',
    'workshop',
    'seminar',
    'certification',
    'conference',
    'webinar',
    'books',
    'book',
    'tuition',
    'exam',
  ],
  marketing: [
    'marketing',
    'ads',
    'advertising',
    'campaign',
    'flyers',
    'brochures',
    'banner',
    'sponsorship',
    'trade show',
    'promo',
    'merch',
    'swag',
  ],
  logistics: [
    'freight',
    'shipping',
    'courier',
    'delivery',
    'pallets',
    'postage',
    'fuel',
    'diesel',
    'customs',
    'haulage',
    'storage',
    'truck',
    'trucks',
    'van',
    'vans',
    'tyres',
    'tires',
    'forklift',
  ],
  utilities: ['electricity', 'water bill', 'gas bill', 'internet', 'broadband', 'power bill', 'utilities', 'heating'],
  'professional services': [
    'consulting',
    'consultant',
    'legal',
    'lawyer',
    'attorney',
    'audit',
    'accountant',
    'accounting',
    'translation',
    'notary',
    'advisory',
  ],
};

function words(s: string): string[] {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function containsPhrase(haystack: string[], phrase: string[]): number {
  outer: for (let i = 0; i + phrase.length <= haystack.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (haystack[i + j] !== phrase[j]) continue outer;
    return i;
  }
  return -1;
}

function matchCategory(sentence: string[], categories: readonly Named[]): Named | null {
  // A category named outright wins; then the first synonym in the sentence.
  let best: { cat: Named; at: number; named: boolean } | null = null;
  for (const cat of categories) {
    const name = words(cat.name);
    const at = containsPhrase(sentence, name);
    const singular =
      at < 0 && name.length === 1 && name[0]!.endsWith('s') ? containsPhrase(sentence, [name[0]!.slice(0, -1)]) : -1;
    const hit = at >= 0 ? at : singular;
    if (hit >= 0 && (!best || !best.named || hit < best.at)) best = { cat, at: hit, named: true };
    if (best?.named) continue;
    for (const synonym of CATEGORY_SYNONYMS[cat.name.toLowerCase()] ?? []) {
      const s = containsPhrase(sentence, words(synonym));
      if (s >= 0 && (!best || s < best.at)) best = { cat, at: s, named: false };
    }
  }
  return best?.cat ?? null;
}

/** Parts of vendor names that say nothing about which vendor it is. */
const GENERIC = new Set([
  'group',
  'services',
  'service',
  'consulting',
  'travel',
  'supply',
  'solutions',
  'partners',
  'trading',
  'co',
  'company',
  'ltd',
  'llp',
  'llc',
  'inc',
  'gmbh',
  'ag',
  'bv',
  'fz',
  'sa',
  'plc',
  'the',
  'and',
  'of',
  'security',
  'data',
  'cloud',
  'net',
  'labs',
  'uk',
  'centers',
  'centres',
  'audit',
  'legal',
  'insurance',
  'software',
  'equip',
  'packaging',
  'produce',
  'leasing',
  'fuel',
  'freight',
  'brokers',
  'customs',
  'panels',
  'office',
  'interiors',
  'cyber',
  'devices',
  'workspace',
  'kabel',
  'consult',
  'wartung',
  'analytics',
  'energie',
  'dairy',
  'cold',
  'chain',
  'tyres',
  'pro',
  'metro',
  'fleet',
]);

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const temp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = temp;
    }
  }
  return prev[b.length]!;
}

/** Close enough for a spoken or mistyped name: one letter off in five, two in nine. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const n = Math.max(a.length, b.length);
  if (n < 5) return false;
  return levenshtein(a, b) <= (n >= 9 ? 2 : 1);
}

function matchVendor(sentence: string[], vendors: readonly Named[]): Named | null {
  let best: { vendor: Named; score: number } | null = null;
  for (const vendor of vendors) {
    const name = words(vendor.name);
    const distinctive = name.filter((w) => !GENERIC.has(w) && w.length > 2);
    // A name made only of common words must be said in full.
    const needed = distinctive.length > 0 ? distinctive : name;
    if (!needed.some((w) => sentence.some((s) => sameWord(s, w)))) continue;
    const matched = name.filter((w) => sentence.some((s) => sameWord(s, w))).length;
    if (distinctive.length === 0 && matched < name.length) continue;
    const score = matched / name.length + (name.every((w) => sentence.includes(w)) ? 1 : 0);
    if (!best || score > best.score) best = { vendor, score };
  }
  return best?.vendor ?? null;
}

// --- description ---------------------------------------------------------------------------------

const FILLER_START =
  /^(?:(?:i|we)\s+(?:spent|paid|bought|had|took|got)|spent|paid|bought|expense(?:\s+for)?|for|on|at|of|and|it was|was|cost|costing|about|around|approximately|roughly)\b\s*/i;
const FILLER_END =
  /\s*\b(?:for|on|at|of|and|costing|cost|about|around|approximately|roughly|which was|that was|it was|was|in|paid|spent|total(?:ling)?|yesterday|today)$/i;

function describe(text: string, spans: readonly Found[]): string {
  let s = mask(text, spans);
  s = s
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
  s = s
    .replace(/(?:^[\s,.;:-]+)|(?:[\s,;:-]+$)/g, '')
    .replace(/([,;])\s*(?=[,;])/g, '')
    .replace(/\.$/, '');
  for (let i = 0; i < 4; i++) {
    const before = s;
    s = s
      .replace(FILLER_START, '')
      .replace(FILLER_END, '')
      .replace(/(?:^[\s,.;:-]+)|(?:[\s,;:-]+$)/g, '');
    s = s.replace(/\s*,\s*(?:for|on|at)\s*,/gi, ',').replace(/\s+(?:for|on|at)\s*,/gi, ',');
    if (s === before) break;
  }
  s = s.replace(/\s{2,}/g, ' ').trim();
  return s ? s[0]!.toUpperCase() + s.slice(1) : '';
}

// --- the parser ----------------------------------------------------------------------------------

export function parseExpenseText(input: string, ctx: ParseContext): ParsedExpense {
  let text = input.replace(/\s+/g, ' ').trim();
  // Amounts in words ("forty-five dollars") become digits first; the rest reads the same.
  const withDigits = String(wordsToNumbers(text) ?? text);
  if (
    /\d/.test(withDigits) &&
    withDigits !== text &&
    !findAmountWithCurrency(text) &&
    !/\d/.test(text.replace(/\b\d{1,2}(?:st|nd|rd|th)\b|\d+\/\d+/g, ''))
  ) {
    text = withDigits.replace(/\s+/g, ' ');
  }

  const spans: Found[] = [];
  // The amount with its currency is the surest reading: taken first, so "12.50" never reads as a time.
  let amount = findAmountWithCurrency(text);
  if (amount) spans.push(amount);

  // Dates, on the rest of the sentence.
  let date: DateFound | null = findWeekday(mask(text, spans), ctx.today);
  if (!date) date = findOrdinalDay(mask(text, spans), ctx.today);
  if (!date)
    date = findChronoDate(
      mask(text, spans).replace(/\d+(?:[.,]\d+)?k\b/gi, (m) => ' '.repeat(m.length)),
      ctx.today,
    );
  if (date) spans.push(date);

  if (!amount) {
    amount = findBareAmount(text, spans);
    if (amount) spans.push(amount);
  }

  // A currency said apart from the number ("in euros").
  let currency = amount?.currency ?? null;
  if (!currency) {
    const m = new RegExp(String.raw`\b(?:in\s)?(${CURRENCY_WORD})\b`, 'iu').exec(mask(text, spans));
    if (m) {
      currency = currencyOfWord(m[1]!);
      spans.push({ start: m.index, end: m.index + m[0].length });
    }
  }

  const sentence = words(mask(text, spans));
  const code = currency ?? ctx.currency;
  return {
    amount: amount ? roundToCurrency(amount.amount, code) : null,
    currency: code,
    date: date?.date ?? ctx.today,
    category: matchCategory(sentence, ctx.categories),
    vendor: matchVendor(sentence, ctx.vendors),
    description: describe(text, spans),
  };
}
