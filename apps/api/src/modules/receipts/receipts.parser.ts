// Reads the fields of a receipt from its text lines. Pure functions, no I/O: the scan service feeds
// them OCR or PDF text. Definitions (what the accuracy is judged by): merchant is the trading name at
// the top without store numbers or legal forms; date is the document's date (not a due, arrival or
// event date), slash dates month-first for US merchants and day-first elsewhere; total is the final
// amount charged (tip and service included); tax is VAT or sales tax summed over rates, never a
// service charge or a levy, null when none is printed; currency from a code or symbol, else the
// country in the address. Nothing is invented: a field not found is null.

export interface TextLine {
  text: string;
  /** The OCR's confidence in this line (0..1); 1 for a PDF's text layer. */
  confidence: number;
}

export interface ReceiptFields {
  merchant: string | null;
  date: string | null;
  total: string | null;
  tax: string | null;
  currency: string | null;
  confidence: { merchant: number; date: number; total: number; tax: number; currency: number };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------- currency

const CODES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'JPY',
  'INR',
  'CAD',
  'AUD',
  'SGD',
  'NZD',
  'HKD',
  'CNY',
  'PLN',
  'CZK',
  'HUF',
  'MXN',
  'BRL',
  'ZAR',
  'AED',
  'SAR',
  'TRY',
  'KRW',
  'THB',
  'MYR',
  'IDR',
  'PHP',
  'ILS',
  'RON',
] as const;

/** Country words and address signs, each with its currency. */
const COUNTRY_SIGNS: { pattern: RegExp; country: string; currency: string }[] = [
  { pattern: /\b(united states|usa|u\.s\.a\.)\b/i, country: 'US', currency: 'USD' },
  {
    pattern:
      /,\s*(A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s+\d{5}(-\d{4})?\b/,
    country: 'US',
    currency: 'USD',
  },
  { pattern: /\bNew York, NY\b|,\s*NY\b/, country: 'US', currency: 'USD' },
  {
    pattern: /\b(canada)\b|,\s*(ON|BC|QC|AB|MB|NS|NB|SK|PE|NL)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/i,
    country: 'CA',
    currency: 'CAD',
  },
  { pattern: /\b(australia)\b|\b(NSW|VIC|QLD|WA|SA|TAS|ACT)\s+\d{4}\b|\bABN\b/, country: 'AU', currency: 'AUD' },
  { pattern: /\b(new zealand|aotearoa)\b/i, country: 'NZ', currency: 'NZD' },
  { pattern: /\b(singapore)\b/i, country: 'SG', currency: 'SGD' },
  { pattern: /\b(hong kong)\b/i, country: 'HK', currency: 'HKD' },
  {
    pattern:
      /\b(united kingdom|england|scotland|wales|london)\b|\bVAT (No|Reg)\.? ?GB\b|\b[A-Z]{1,2}\d{1,2}[A-Z]? \d[A-Z]{2}\b/i,
    country: 'GB',
    currency: 'GBP',
  },
  { pattern: /\b(ireland|dublin)\b/i, country: 'IE', currency: 'EUR' },
  { pattern: /\b(deutschland|germany|berlin|m[uü]nchen|hamburg|k[oö]ln|frankfurt)\b/i, country: 'DE', currency: 'EUR' },
  { pattern: /\b(france|paris|lyon|marseille)\b/i, country: 'FR', currency: 'EUR' },
  { pattern: /\b(espa[nñ]a|spain|madrid|barcelona)\b/i, country: 'ES', currency: 'EUR' },
  { pattern: /\b(italia|italy|roma|milano)\b/i, country: 'IT', currency: 'EUR' },
  { pattern: /\b(nederland|netherlands|amsterdam|rotterdam)\b/i, country: 'NL', currency: 'EUR' },
  { pattern: /\b(belgi[eë]|belgique|belgium|bruxelles|brussel)\b/i, country: 'BE', currency: 'EUR' },
  { pattern: /\b([oö]sterreich|austria|wien)\b/i, country: 'AT', currency: 'EUR' },
  { pattern: /\b(portugal|lisboa)\b/i, country: 'PT', currency: 'EUR' },
  { pattern: /\b(suomi|finland|helsinki)\b/i, country: 'FI', currency: 'EUR' },
  {
    pattern: /\b(schweiz|suisse|svizzera|switzerland|z[uü]rich|gen[eè]ve|basel|bern)\b/i,
    country: 'CH',
    currency: 'CHF',
  },
  { pattern: /\b(sverige|sweden|stockholm|g[oö]teborg)\b/i, country: 'SE', currency: 'SEK' },
  { pattern: /\b(norge|norway|oslo)\b/i, country: 'NO', currency: 'NOK' },
  { pattern: /\b(danmark|denmark|k[oø]benhavn|copenhagen)\b/i, country: 'DK', currency: 'DKK' },
  { pattern: /\b(polska|poland|warszawa)\b/i, country: 'PL', currency: 'PLN' },
  { pattern: /\b(japan|tokyo|osaka|kyoto)\b/i, country: 'JP', currency: 'JPY' },
  {
    pattern: /\b(india|mumbai|delhi|chennai|bengaluru|bangalore|kolkata)\b|\bGSTIN\b/i,
    country: 'IN',
    currency: 'INR',
  },
  { pattern: /\b(china|beijing|shanghai)\b/i, country: 'CN', currency: 'CNY' },
  { pattern: /\b(m[eé]xico)\b/i, country: 'MX', currency: 'MXN' },
];

const DOLLAR_COUNTRIES: Record<string, string> = {
  US: 'USD',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  SG: 'SGD',
  HK: 'HKD',
  MX: 'MXN',
};

export function detectCountry(text: string): { country: string; currency: string } | null {
  const head = text.split('\n').slice(0, 12).join('\n');
  for (const area of [head, text]) {
    for (const s of COUNTRY_SIGNS) if (s.pattern.test(area)) return { country: s.country, currency: s.currency };
  }
  return null;
}

export function detectCurrency(text: string): { currency: string | null; confidence: number; country: string | null } {
  const country = detectCountry(text);
  const counts = new Map<string, number>();
  for (const m of text.toUpperCase().matchAll(/(?<![A-Z])([A-Z]{3})(?![A-Z])/g)) {
    const code = m[1]!;
    if ((CODES as readonly string[]).includes(code)) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  const byCount = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (byCount.length > 0) return { currency: byCount[0]![0], confidence: 0.95, country: country?.country ?? null };
  const symbol = (pattern: RegExp, currency: string, confidence = 0.9) =>
    pattern.test(text) ? { currency, confidence, country: country?.country ?? null } : null;
  const found =
    symbol(/€/, 'EUR') ??
    symbol(/£/, 'GBP') ??
    symbol(/₹|\bRs\.? ?\d/, 'INR') ??
    symbol(/\bS\$/, 'SGD') ??
    symbol(/\bA\$|\bAU\$/, 'AUD') ??
    symbol(/\bC\$|\bCA\$/, 'CAD') ??
    symbol(/\bHK\$/, 'HKD') ??
    symbol(/\bR\$/, 'BRL') ??
    symbol(/\bNZ\$/, 'NZD') ??
    symbol(/zł/i, 'PLN');
  if (found) return found;
  if (/¥|￥/.test(text))
    return { currency: country?.country === 'CN' ? 'CNY' : 'JPY', confidence: 0.85, country: country?.country ?? null };
  if (/\$/.test(text)) {
    const local = country ? DOLLAR_COUNTRIES[country.country] : undefined;
    return { currency: local ?? 'USD', confidence: local ? 0.9 : 0.75, country: country?.country ?? null };
  }
  if (/\d\s?kr\b|\bkr\.?\s?\d/i.test(text) && country && ['SE', 'NO', 'DK'].includes(country.country)) {
    return { currency: country.currency, confidence: 0.85, country: country.country };
  }
  if (country) return { currency: country.currency, confidence: 0.7, country: country.country };
  return { currency: null, confidence: 0, country: null };
}

// ---------------------------------------------------------------- amounts

/** Minor unit digits of the currencies whose receipts print no decimals. */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'HUF', 'IDR']);

/**
 * A printed amount as a dot-decimal string: "1 037,00" → "1037.00", "42,50" → "42.50",
 * "1,264" (yen) → "1264", "1.234,56" → "1234.56". Null when it is not an amount.
 */
export function normalizeAmount(raw: string, currency: string | null = null): string | null {
  let s = raw
    .replace(/[\s\u00a0'’]/g, '')
    .replace(/^[^\d-]+/, '')
    .replace(/[^\d.,]+$/, '');
  if (!/^-?\d[\d.,]*$/.test(s)) return null;
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  if (lastSep === -1) return s.replace(/^0+(?=\d)/, '');
  const decimals = s.length - lastSep - 1;
  const zeroDecimal = currency !== null && ZERO_DECIMAL.has(currency);
  if ((decimals === 1 || decimals === 2) && !zeroDecimal) {
    const intPart = s.slice(0, lastSep).replace(/[.,]/g, '');
    s = `${intPart}.${s.slice(lastSep + 1).padEnd(2, '0')}`;
  } else if (decimals === 3 || zeroDecimal) {
    s = s.replace(/[.,]/g, '');
  } else return null;
  return s.replace(/^(-?)0+(?=\d)/, '$1');
}

const AMOUNT =
  /(?:[A-Z]{3}\s?|[$€£¥₹]\s?|S\$|kr\s?)?-?\d{1,3}(?:(?:[ ,.'](?=\d{3}\b)\d{3})+)?(?:[.,]\d{1,2})?(?!\d)|(?:[$€£¥₹]\s?)?-?\d+(?:[.,]\d{1,2})?(?!\d)/g;

/** The amounts printed on a line, left to right, leaving out percentages, times, dates and long numbers. */
export function amountsOf(line: string, currency: string | null = null): string[] {
  const cleaned = line
    .replace(/\d+(?:[.,]\d+)?\s?%/g, ' ')
    .replace(/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, ' ')
    .replace(/\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/g, ' ')
    .replace(/\b\d{5,}\b/g, (m) => (m.length > 7 ? ' ' : m))
    .replace(/x\s?\d+\b/gi, ' ');
  const out: string[] = [];
  for (const m of cleaned.matchAll(AMOUNT)) {
    const value = normalizeAmount(m[0], currency);
    if (value !== null) out.push(value);
  }
  return out;
}

/** The amount a line ends with (where receipts print it), if any. */
function lineAmount(line: string, currency: string | null): string | null {
  const amounts = amountsOf(line, currency);
  return amounts.length > 0 ? amounts[amounts.length - 1]! : null;
}

const cmp = (a: string, b: string) => Number(a) - Number(b);

// ---------------------------------------------------------------- total and tax

const SUBTOTAL =
  /\b(sub\s?-?total|zwischensumme|total\s+ht|base\s+imponible|netto|net\s+amount|total\s+before|total\s+items?|items?\s+total|total\s+savings?|total\s+discount)\b/i;
const TAX_WORD =
  /\b(vat|tva|mwst|mw\.?st|ust|btw|iva|moms|gst|hst|pst|qst|cgst|sgst|igst|sales\s+tax|tax|consumption\s+tax|mehrwertsteuer|impuesto|steuer)\b/i;
const NOT_TAX =
  /\b(service|svc|levy|city|tourist|tourism|occupancy|lodging|tax\s*free|tax\s+id|vat\s+(no|reg|number|id)|gstin|tax\s+invoice|tax\s+no|tin|before\s+tax|excl)\b/i;
const TOTAL_WORDS: { pattern: RegExp; rank: number }[] = [
  {
    pattern:
      /\b(grand\s+total|total\s+ttc|total\s+due|amount\s+due|total\s+amount|amount\s+charged|total\s+to\s+pay|total\s+paid|gesamtbetrag)\b/i,
    rank: 3,
  },
  {
    pattern: /\b(total|totaal|totalt|summe|gesamt|montant|importe|betrag|totale|razem|yhteens[aä]|i\s+alt)\b/i,
    rank: 2,
  },
];
const PAID_WORDS = /\b(visa|mastercard|amex|card|debit|credit|eftpos|cb|kort|pinnen|carte)\b/i;

function isTaxLine(text: string): boolean {
  return (
    TAX_WORD.test(text) && !NOT_TAX.test(text) && !/^\s*total\b(?!\s+(vat|tax|gst|tva|mwst|iva|btw|moms))/i.test(text)
  );
}

export function findTotal(lines: TextLine[], currency: string | null): { value: string | null; confidence: number } {
  let best: { value: string; rank: number; confidence: number } | null = null;
  for (const line of lines) {
    if (SUBTOTAL.test(line.text) || isTaxLine(line.text)) continue;
    const rank = TOTAL_WORDS.find((w) => w.pattern.test(line.text))?.rank;
    if (!rank) continue;
    const value = lineAmount(line.text, currency);
    if (value === null || Number(value) <= 0) continue;
    if (!best || rank > best.rank || (rank === best.rank && cmp(value, best.value) > 0))
      best = { value, rank, confidence: line.confidence };
  }
  if (best)
    return { value: best.value, confidence: round2(Math.min(1, best.confidence) * (best.rank >= 2 ? 0.98 : 0.8)) };
  // No TOTAL line: what the card was charged is the next best witness.
  for (const line of lines) {
    if (!PAID_WORDS.test(line.text)) continue;
    const value = lineAmount(line.text, currency);
    if (value !== null && Number(value) > 0) return { value, confidence: round2(line.confidence * 0.5) };
  }
  return { value: null, confidence: 0 };
}

export function findTax(lines: TextLine[], currency: string | null): { value: string | null; confidence: number } {
  const taxLines: { value: string; confidence: number; summary: boolean }[] = [];
  for (const line of lines) {
    if (!isTaxLine(line.text)) continue;
    const value = lineAmount(line.text, currency);
    if (value === null) continue;
    taxLines.push({ value, confidence: line.confidence, summary: /\btotal\b/i.test(line.text) });
  }
  if (taxLines.length === 0) return { value: null, confidence: 0.9 };
  // A "Total VAT" line already sums the rates above it.
  const summary = taxLines.find((t) => t.summary);
  const chosen = summary ? [summary] : taxLines;
  const zeroDecimal = currency !== null && ZERO_DECIMAL.has(currency);
  const cents = chosen.reduce((sum, t) => sum + Math.round(Number(t.value) * 100), 0);
  const value =
    zeroDecimal && chosen.every((t) => !t.value.includes('.')) ? String(cents / 100) : (cents / 100).toFixed(2);
  const confidence = Math.min(...chosen.map((t) => t.confidence)) * 0.95;
  return { value, confidence: round2(confidence) };
}

// ---------------------------------------------------------------- date

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: [number, string[]][] = [
  [1, ['jan', 'january', 'januar', 'janv', 'janvier', 'enero', 'ene', 'gennaio', 'januari', 'jänner']],
  [2, ['feb', 'february', 'februar', 'fevr', 'févr', 'février', 'fevrier', 'febrero', 'febbraio', 'februari']],
  [3, ['mar', 'march', 'märz', 'marz', 'mars', 'marzo', 'maart']],
  [4, ['apr', 'april', 'avr', 'avril', 'abril', 'aprile']],
  [5, ['may', 'mai', 'mayo', 'maggio', 'mei', 'maj']],
  [6, ['jun', 'june', 'juni', 'juin', 'junio', 'giugno']],
  [7, ['jul', 'july', 'juli', 'juil', 'juillet', 'julio', 'luglio']],
  [8, ['aug', 'august', 'août', 'aout', 'agosto', 'augustus', 'augusti']],
  [9, ['sep', 'sept', 'september', 'septembre', 'septiembre', 'settembre']],
  [10, ['oct', 'october', 'oktober', 'octobre', 'octubre', 'ottobre', 'okt']],
  [11, ['nov', 'november', 'novembre', 'noviembre']],
  [12, ['dec', 'december', 'dezember', 'décembre', 'decembre', 'diciembre', 'dicembre', 'dez', 'dic']],
];
for (const [n, names] of MONTH_NAMES) for (const name of names) MONTHS[name] = n;
const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const NOT_DOCUMENT_DATE =
  /\b(due|arrival|arrive|arr|departure|depart|dep|check[\s-]?in|check[\s-]?out|expir\w*|exp|valid|event|delivery|deliver\w*|ship\w*|from|until|period|birth|f[aä]llig|échéance|vencimiento)\b/i;
const DOCUMENT_DATE = /\b(invoice\s+date|bill\s+date|receipt\s+date|date|datum|fecha|data|le|issued)\b/i;

function valid(y: number, m: number, d: number): string | null {
  if (y < 100) y += 2000;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1990 || y > 2100) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Every date a line prints, as YYYY-MM-DD; slash dates month-first when monthFirst. */
export function datesOf(line: string, monthFirst: boolean): string[] {
  const out: string[] = [];
  const text = line.toLowerCase();
  for (const m of text.matchAll(/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g)) {
    const v = valid(+m[1]!, +m[2]!, +m[3]!);
    if (v) out.push(v);
  }
  for (const m of text.matchAll(/\b(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})\b/g)) {
    const [a, sep, b, y] = [+m[1]!, m[2]!, +m[3]!, +m[4]!];
    // Dots are day-first everywhere; slashes and dashes follow the merchant's country unless a part is over 12.
    const dayFirst = sep === '.' ? true : a > 12 ? true : b > 12 ? false : !monthFirst;
    const v = dayFirst ? valid(y, b, a) : valid(y, a, b);
    if (v) out.push(v);
  }
  const named = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?[\\s.-]*(${MONTH_RE})\\.?[\\s.,-]*(\\d{4}|\\d{2})\\b`, 'giu');
  for (const m of text.matchAll(named)) {
    const v = valid(+m[3]!, MONTHS[m[2]!]!, +m[1]!);
    if (v) out.push(v);
  }
  const namedFirst = new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'giu');
  for (const m of text.matchAll(namedFirst)) {
    const v = valid(+m[3]!, MONTHS[m[1]!]!, +m[2]!);
    if (v) out.push(v);
  }
  return out;
}

export function findDate(lines: TextLine[], monthFirst: boolean): { value: string | null; confidence: number } {
  let labelled: { value: string; confidence: number } | null = null;
  let first: { value: string; confidence: number } | null = null;
  for (const line of lines) {
    const dates = datesOf(line.text, monthFirst);
    if (dates.length === 0) continue;
    if (NOT_DOCUMENT_DATE.test(line.text)) continue;
    const candidate = { value: dates[0]!, confidence: line.confidence };
    if (DOCUMENT_DATE.test(line.text) && !labelled) labelled = candidate;
    first ??= candidate;
  }
  const chosen = labelled ?? first;
  if (!chosen) return { value: null, confidence: 0 };
  return { value: chosen.value, confidence: round2(chosen.confidence * (labelled ? 0.97 : 0.9)) };
}

// ---------------------------------------------------------------- merchant

const LEGAL_FORMS =
  /(,?\s+|^)(gmbh\s*&\s*co\.?\s*kg|gmbh|mbh|ag|kg|ohg|e\.?\s?k\.?|ltd\.?|limited|plc|llc|l\.l\.c\.|inc\.?|incorporated|corp\.?|corporation|co\.?|company|s\.?\s?a\.?\s?r\.?\s?l\.?|sarl|sas|s\.a\.s\.|s\.?a\.?|s\.?l\.?|s\.?r\.?l\.?|s\.?p\.?a\.?|b\.?v\.?|n\.?v\.?|ab|a\/s|as|asa|oy|oyj|pvt\.?\s+ltd\.?|pvt\.?|pty\.?\s+ltd\.?|pty|sp\.?\s*z\s*o\.?\s*o\.?|genossenschaft)\s*$/i;
const NOT_NAME =
  /\b(receipt|invoice|tax invoice|welcome|bienvenue|willkommen|tel|phone|fax|www\.|https?:|@|vat|gstin|abn|order|table|date)\b/i;
const ADDRESS =
  /^\d+[\w-]*\s+\w+|\b(street|st\.?|road|rd\.?|avenue|ave|blvd|boulevard|strasse|straße|str\.|calle|rue|via|platz|plein|straat|lane|drive|suite|floor)\b|\b\d{4,5}\b/i;

function titleCase(name: string): string {
  if (name !== name.toUpperCase() || !/[A-Z]/.test(name)) return name;
  if (!/\s/.test(name) && name.length <= 4) return name;
  return name.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** The trading name: without store numbers ("#112", "Store 2041", "Filiale 7") or legal forms. */
export function cleanMerchant(raw: string): string | null {
  let name = raw
    .replace(/\s*(#|no\.?|nr\.?|store|shop|filiale|branch|outlet|unit)\s*\d+\b.*$/i, '')
    .replace(/\s{2,}.*$/, '')
    .replace(/[^\p{L}\p{N}&'.,\- ]/gu, '')
    .trim();
  for (let i = 0; i < 3; i++)
    name = name
      .replace(LEGAL_FORMS, '')
      .replace(/[,\s]+$/, '')
      .trim();
  if ((name.match(/\p{L}/gu) ?? []).length < 2) return null;
  return titleCase(name);
}

export function findMerchant(lines: TextLine[]): { value: string | null; confidence: number } {
  for (const line of lines.slice(0, 6)) {
    const text = line.text.trim();
    const letters = (text.match(/\p{L}/gu) ?? []).length;
    if (letters < 2 || letters / text.replace(/\s/g, '').length < 0.6) continue;
    const value = cleanMerchant(text);
    if (!value || NOT_NAME.test(value) || ADDRESS.test(value) || datesOf(text, false).length > 0) continue;
    return { value, confidence: round2(line.confidence * 0.95) };
  }
  return { value: null, confidence: 0 };
}

// ---------------------------------------------------------------- all fields

/** Lines worth reading: OCR noise (very low confidence, no letters or digits) is dropped. */
export function usableLines(lines: TextLine[]): TextLine[] {
  return (
    lines
      // OCR splits "$2.29" into "$2." and "29" (or "$2" and ".29") when a monospaced point leaves a wide gap.
      .map((l) => ({
        text: l.text
          .replace(/\s+$/, '')
          .replace(/(\d[.,])\s{1,4}(\d{2})(?!\d)/g, '$1$2')
          .replace(/(\d)\s{1,4}([.,]\d{2})(?!\d)/g, '$1$2'),
        confidence: l.confidence,
      }))
      .filter(
        (l) =>
          l.text.trim() !== '' && /[\p{L}\p{N}]/u.test(l.text) && !(l.confidence < 0.3 && l.text.trim().length < 12),
      )
  );
}

export function parseReceipt(input: TextLine[]): ReceiptFields {
  const lines = usableLines(input);
  const text = lines.map((l) => l.text).join('\n');
  const currency = detectCurrency(text);
  const monthFirst = currency.country === 'US' || (currency.country === null && currency.currency === 'USD');
  const merchant = findMerchant(lines);
  const date = findDate(lines, monthFirst);
  const total = findTotal(lines, currency.currency);
  const tax = total.value === null ? { value: null, confidence: 0 } : findTax(lines, currency.currency);
  return {
    merchant: merchant.value,
    date: date.value,
    total: total.value,
    tax: tax.value,
    currency: currency.currency,
    confidence: {
      merchant: merchant.confidence,
      date: date.confidence,
      total: total.confidence,
      tax: tax.value === null ? round2(tax.confidence * 0.6) : tax.confidence,
      currency: currency.confidence,
    },
  };
}
