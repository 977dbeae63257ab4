import DecimalJs from 'decimal.js';

/**
 * Money arithmetic, the one place it happens (ARCHITECTURE.md §7). Amounts travel as exact decimal
 * strings (`moneyAmount` in primitives.ts checks them at the edge); here they are parsed into
 * decimal.js values, never into `number`, so 0.1 + 0.2 is 0.3 and 999,999,999,999.99 keeps its
 * cents. Display formatting is in format.ts, shared by the web app and the server.
 */

/**
 * decimal.js keeps 20 significant digits by default, and 999,999,999,999.99 × a rate with eight
 * decimals needs 26: this copy keeps 40, so products are exact before they are rounded.
 */
export const Decimal = DecimalJs.clone({ precision: 40 });
export type Decimal = DecimalJs;
export type MoneyValue = string | DecimalJs;

/** Decimal places of every money column (`numeric(14, 2)`) and of amounts on the wire. */
export const MONEY_SCALE = 2;
/** Decimal places of a stored FX rate (`numeric(18, 8)`). */
export const RATE_SCALE = 8;

/**
 * ISO 4217 minor units that are not 2. A table rather than `Intl.NumberFormat`'s
 * `maximumFractionDigits`, because CLDR (which Intl reads) gives the digits people usually write,
 * not ISO's: 0 for IQD (ISO 3), COP, HUF, IDR, PKR and a dozen more (ISO 2), and it can differ
 * between the server's and a browser's ICU. Funds and metals (XAU, XDR, XXX) have no minor unit
 * in ISO and are kept at 2, the columns' scale.
 */
const ISO_MINOR_UNITS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ),
  ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** The ISO 4217 minor unit of a currency: JPY 0, USD 2, BHD 3, CLF 4. */
export function minorUnit(currency: string): number {
  return ISO_MINOR_UNITS[currency.toUpperCase()] ?? 2;
}

/** Digits an amount in `currency` is rounded to before it is stored: its minor unit, at most the columns' scale. */
export function storedDigits(currency: string): number {
  return Math.min(minorUnit(currency), MONEY_SCALE);
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** True for an exact decimal string (`12`, `-0.5`, `1234.56`); no exponent, no `NaN`, no `Infinity`. */
export function isDecimal(value: string): boolean {
  return DECIMAL.test(value.trim());
}

/**
 * Why `amount` cannot be an amount in `currency`, or null when it can: it has more decimals than
 * the currency has (yen have none), or than the columns keep (BHD's third decimal would be
 * rounded away, so it is refused instead). Trailing zeros are fine: `1200.00` is whole yen, as the
 * API writes it. Malformed amounts are left to their own check.
 */
export function amountDigitsProblem(amount: string, currency: string): string | null {
  if (!isDecimal(amount)) return null;
  const allowed = storedDigits(currency);
  if (new Decimal(amount.trim()).decimalPlaces() <= allowed) return null;
  const code = currency.toUpperCase();
  if (allowed === 0) return `${code} amounts have no decimals`;
  const most = allowed === 1 ? 'one decimal' : 'two decimals';
  return minorUnit(code) > allowed
    ? `${code} amounts are kept to ${most} here: a smaller fraction cannot be stored`
    : `Enter a ${code} amount with at most ${most}`;
}

/** The exact value of a decimal string; throws on anything else, so a malformed amount never becomes 0. */
export function parseMoney(value: MoneyValue): Decimal {
  if (DecimalJs.isDecimal(value)) return new Decimal(value);
  if (!isDecimal(value)) throw new Error(`Not an amount: ${value}`);
  return new Decimal(value.trim());
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`. */
export function compareMoney(a: MoneyValue, b: MoneyValue): -1 | 0 | 1 {
  return parseMoney(a).cmp(parseMoney(b)) as -1 | 0 | 1;
}

export const isNegative = (a: MoneyValue): boolean => parseMoney(a).isNeg() && !parseMoney(a).isZero();
export const isPositive = (a: MoneyValue): boolean => parseMoney(a).gt(0);

/** The exact sum of the amounts (0 for none). */
export function addMoney(...amounts: MoneyValue[]): Decimal {
  return amounts.reduce<Decimal>((sum, a) => sum.plus(parseMoney(a)), new Decimal(0));
}

export function subtractMoney(a: MoneyValue, b: MoneyValue): Decimal {
  return parseMoney(a).minus(parseMoney(b));
}

/** An amount with exactly `MONEY_SCALE` decimals, rounded half-up: the wire and column form. */
export function toAmountString(value: MoneyValue): string {
  return parseMoney(value).toDecimalPlaces(MONEY_SCALE, DecimalJs.ROUND_HALF_UP).toFixed(MONEY_SCALE);
}

/**
 * An amount rounded half-up to what `currency` can hold (whole yen, cents of a dollar), written
 * with `MONEY_SCALE` decimals as the columns store it. BHD's third decimal does not fit the
 * columns, so BHD amounts are kept to two.
 */
export function roundToCurrency(value: MoneyValue, currency: string): string {
  return parseMoney(value).toDecimalPlaces(storedDigits(currency), DecimalJs.ROUND_HALF_UP).toFixed(MONEY_SCALE);
}

/** An FX rate as it is stored: half-up to `RATE_SCALE` places. */
export function roundRate(rate: MoneyValue): string {
  return parseMoney(rate).toDecimalPlaces(RATE_SCALE, DecimalJs.ROUND_HALF_UP).toFixed(RATE_SCALE);
}

/**
 * `amount` × `rate` in `currency`. The rate is rounded to its stored precision first, so the
 * stored rate times the stored amount gives the stored converted amount again, to the minor unit.
 */
export function convertMoney(amount: MoneyValue, rate: MoneyValue, currency: string): { rate: string; amount: string } {
  const stored = roundRate(rate);
  return { rate: stored, amount: roundToCurrency(parseMoney(amount).mul(stored), currency) };
}

/** An integer count of minor units (`123456n` cents) as an amount (`1234.56`); generators count in whole units. */
export function fromMinorUnits(units: bigint, digits: number = MONEY_SCALE): string {
  return new Decimal(units.toString()).div(new Decimal(10).pow(digits)).toFixed(MONEY_SCALE);
}
