import Decimal from 'decimal.js';
import { and, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { fxRates, organizations, type Db } from '@outlay/db';
import { isIsoCurrency } from '@outlay/contracts';
import { compareMoney, convertMoney, RATE_SCALE, roundRate, toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { AppError } from './app-error.ts';
import { rowsOf } from './sql.ts';

/**
 * Rates are monthly averages. A pair rate is rounded half-up to the 8 places it is stored with
 * before it multiplies, and the product is rounded to the target currency's minor unit, so the
 * stored rate times the stored amount gives the stored converted amount.
 */
export interface Conversion {
  /** 1 unit of `from` = rate units of `to`. */
  rate: string;
  amount: string;
  /** The FX period (YYYY-MM) used, null when no conversion was needed. */
  period: string | null;
}

const PIVOT = 'USD';

function periodOf(date: Date | string): string {
  const iso = typeof date === 'string' ? date : date.toISOString();
  return iso.slice(0, 7);
}

/** Rate of 1 `currency` in USD for the newest period not after `period` (else the oldest after it). */
async function usdRate(db: Db, currency: string, period: string): Promise<{ rate: Decimal; period: string } | null> {
  if (currency === PIVOT) return { rate: new Decimal(1), period };
  const [direct] = await db
    .select({ rate: fxRates.averageRate, period: fxRates.period })
    .from(fxRates)
    .where(and(eq(fxRates.base, currency), eq(fxRates.quote, PIVOT), lte(fxRates.period, period)))
    .orderBy(desc(fxRates.period))
    .limit(1);
  if (direct) return { rate: new Decimal(direct.rate), period: direct.period };
  const [inverse] = await db
    .select({ rate: fxRates.averageRate, period: fxRates.period })
    .from(fxRates)
    .where(and(eq(fxRates.base, PIVOT), eq(fxRates.quote, currency), lte(fxRates.period, period)))
    .orderBy(desc(fxRates.period))
    .limit(1);
  if (inverse) return { rate: new Decimal(1).div(inverse.rate), period: inverse.period };
  // A date before the first rate: take the earliest one there is.
  const [earliest] = await db
    .select({ base: fxRates.base, rate: fxRates.averageRate, period: fxRates.period })
    .from(fxRates)
    .where(
      or(
        and(eq(fxRates.base, currency), eq(fxRates.quote, PIVOT)),
        and(eq(fxRates.base, PIVOT), eq(fxRates.quote, currency)),
      ),
    )
    .orderBy(fxRates.period)
    .limit(1);
  if (!earliest) return null;
  return {
    rate: earliest.base === currency ? new Decimal(earliest.rate) : new Decimal(1).div(earliest.rate),
    period: earliest.period,
  };
}

/** The exact rate from → to for a period (through USD), or a 400 naming the missing currency. */
async function pairRate(
  db: Db,
  fromCurrency: string,
  toCurrency: string,
  period: string,
): Promise<{ rate: Decimal; period: string }> {
  const [from, to] = await Promise.all([usdRate(db, fromCurrency, period), usdRate(db, toCurrency, period)]);
  if (!from || !to) {
    const missing = !from ? fromCurrency : toCurrency;
    throw new AppError('VALIDATION_ERROR', {
      message: `There is no exchange rate for ${missing}; ask finance to add one under FX rates`,
      details: [{ path: 'currency', message: `No exchange rate for ${missing}` }],
    });
  }
  return { rate: from.rate.div(to.rate), period: from.period > to.period ? from.period : to.period };
}

/** The largest amount a money column (`numeric(14, 2)`) holds. */
export const MAX_STORED_AMOUNT = '999999999999.99';

/**
 * A conversion about to be stored: an amount that fits in its own currency can overflow the
 * column once converted (999,999,999,999.99 GBP in USD), which is the client's 400, said plainly.
 */
export function assertStorable(
  conversion: Conversion,
  input: { amount: string; from: string; to: string },
): Conversion {
  if (compareMoney(new Decimal(conversion.amount).abs(), MAX_STORED_AMOUNT) > 0) {
    const message = `${serverFormat.money(input.amount, input.from)} is ${serverFormat.money(conversion.amount, input.to)}, more than the largest amount that can be recorded (${serverFormat.money(MAX_STORED_AMOUNT, input.to)})`;
    throw new AppError('AMOUNT_TOO_LARGE', { message, details: [{ path: 'amount', message }] });
  }
  return conversion;
}

/** Converts an exact decimal amount with the FX table (through USD when there is no direct pair). */
export async function convert(
  db: Db,
  input: { amount: string; from: string; to: string; date: Date | string },
): Promise<Conversion> {
  if (input.from === input.to)
    return { rate: (1).toFixed(RATE_SCALE), amount: toAmountString(input.amount), period: null };
  const { rate, period } = await pairRate(db, input.from, input.to, periodOf(input.date));
  return { ...convertMoney(input.amount, rate, input.to), period };
}

interface PivotRow {
  base: string;
  quote: string;
  period: string;
  rate: Decimal;
}

/** `usdRate` over rows already read (every rate of `currency` against USD), for many months at once. */
function usdRateOf(rows: readonly PivotRow[], currency: string, period: string): Decimal | null {
  if (currency === PIVOT) return new Decimal(1);
  const newest = (list: PivotRow[]) =>
    list.filter((r) => r.period <= period).sort((a, b) => (a.period < b.period ? 1 : -1))[0];
  const direct = newest(rows.filter((r) => r.base === currency && r.quote === PIVOT));
  if (direct) return direct.rate;
  const inverse = newest(rows.filter((r) => r.base === PIVOT && r.quote === currency));
  if (inverse) return new Decimal(1).div(inverse.rate);
  const earliest = rows
    .filter((r) => r.base === currency || r.quote === currency)
    .sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : a.base === currency ? -1 : 1))[0];
  if (!earliest) return null;
  return earliest.base === currency ? earliest.rate : new Decimal(1).div(earliest.rate);
}

/**
 * For reports over many requests: the same amounts as `convert`, with one rate look-up per
 * currency pair and month instead of one per amount.
 */
export class FxCache {
  private rates = new Map<string, Promise<Decimal>>();
  constructor(private db: Db) {}

  private pair(from: string, to: string, period: string): Promise<Decimal> {
    const key = `${from}|${to}|${period}`;
    let rate = this.rates.get(key);
    if (!rate) {
      rate = pairRate(this.db, from, to, period).then((r) => r.rate);
      this.rates.set(key, rate);
    }
    return rate;
  }

  async amount(amount: string, from: string, to: string, date: Date | string): Promise<string> {
    if (from === to) return toAmountString(amount);
    return convertMoney(amount, await this.pair(from, to, periodOf(date)), to).amount;
  }

  /** The rate from → to of a month (YYYY-MM) as it is stored (8 places): what an amount of that month multiplies by. */
  async rate(from: string, to: string, month: string): Promise<string> {
    if (from === to) return (1).toFixed(RATE_SCALE);
    return roundRate(await this.pair(from, to, month));
  }

  /**
   * Reads, in one statement, the rates every pair of `currencies` → `to` needs in `months`, so a
   * report over a year of several currencies costs one look-up, not one per month and currency.
   * A pair with no rate is left to `rate`, which answers with its 400.
   */
  async prime(currencies: Iterable<string>, months: Iterable<string>, to: string): Promise<void> {
    const from = [...new Set(currencies)].filter((c) => c !== to);
    const wanted = [...new Set(months)]
      .flatMap((m) => from.map((c) => ({ c, m, key: `${c}|${to}|${m}` })))
      .filter((w) => !this.rates.has(w.key));
    if (wanted.length === 0) return;
    const involved = [...new Set([...from, to])].filter((c) => c !== PIVOT);
    const rows: PivotRow[] = (
      await this.db
        .select({ base: fxRates.base, quote: fxRates.quote, period: fxRates.period, rate: fxRates.averageRate })
        .from(fxRates)
        .where(
          or(
            and(inArray(fxRates.base, involved), eq(fxRates.quote, PIVOT)),
            and(eq(fxRates.base, PIVOT), inArray(fxRates.quote, involved)),
          ),
        )
    ).map((r) => ({ base: r.base.trim(), quote: r.quote.trim(), period: r.period.trim(), rate: new Decimal(r.rate) }));
    for (const w of wanted) {
      const a = usdRateOf(rows, w.c, w.m);
      const b = usdRateOf(rows, to, w.m);
      if (a && b) this.rates.set(w.key, Promise.resolve(a.div(b)));
    }
  }
}

/** Currencies the FX table can convert (plus USD, the pivot). */
export async function knownCurrencies(db: Db): Promise<string[]> {
  const result = await db.execute(
    sql`SELECT DISTINCT base AS c FROM fx_rates UNION SELECT DISTINCT quote FROM fx_rates`,
  );
  // Codes stored before ISO 4217 was enforced (QQQ, NAN) stay in the table but are never offered.
  const set = new Set<string>([
    PIVOT,
    ...rowsOf<{ c: string }>(result)
      .map((r) => r.c.trim())
      .filter(isIsoCurrency),
  ]);
  return [...set].sort();
}

/** The group-level organization's currency (consolidation currency). */
export async function groupCurrency(db: Db): Promise<string> {
  const [group] = await db
    .select({ currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.kind, 'group'))
    .limit(1);
  return group?.currency ?? PIVOT;
}
