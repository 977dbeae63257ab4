import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/*
 * ICU MessageFormat, formatted from the parsed form. Messages are parsed when the app is built
 * (the English in the code by `compileMessages` in vite.config.ts, each language's catalogue as it
 * is bundled), so what runs in the browser is this walk over the parsed elements with the
 * platform's own Intl.PluralRules, NumberFormat and DateTimeFormat: about a kilobyte, where a
 * parser and a general formatter would take the sign-in route over its JavaScript budget.
 */

/** A message as it reaches the browser: parsed, or (a plain text without ICU syntax) as written. */
export type MessageSource = string | MessageFormatElement[];
export type MessageValue = string | number | Date | null | undefined;
export type MessageValues = Record<string, MessageValue>;

// The parser's element kinds (its TYPE enum), written out so that its code stays out of the bundle.
const LITERAL = 0;
const ARGUMENT = 1;
const NUMBER = 2;
const DATE = 3;
const TIME = 4;
const SELECT = 5;
const PLURAL = 6;
const POUND = 7;
const TAG = 8;
export const ELEMENT_KINDS = { LITERAL, ARGUMENT, NUMBER, DATE, TIME, SELECT, PLURAL, POUND, TAG };

const DATE_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { dateStyle: 'short' },
  medium: { dateStyle: 'medium' },
  long: { dateStyle: 'long' },
  full: { dateStyle: 'full' },
};
const TIME_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { timeStyle: 'short' },
  medium: { timeStyle: 'medium' },
  long: { timeStyle: 'long' },
  full: { timeStyle: 'full' },
};

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

function numberOptions(style: unknown): Intl.NumberFormatOptions {
  if (style === 'percent') return { style: 'percent' };
  if (style === 'integer') return { maximumFractionDigits: 0 };
  // A skeleton ({n, number, ::currency/EUR}) arrives parsed with its options.
  if (style && typeof style === 'object' && 'parsedOptions' in style)
    return (style as { parsedOptions: Intl.NumberFormatOptions }).parsedOptions;
  return {};
}

function dateOptions(style: unknown, styles: Record<string, Intl.DateTimeFormatOptions>): Intl.DateTimeFormatOptions {
  if (typeof style === 'string') return styles[style] ?? styles.medium!;
  if (style && typeof style === 'object' && 'parsedOptions' in style)
    return (style as { parsedOptions: Intl.DateTimeFormatOptions }).parsedOptions;
  return styles.medium!;
}

const asDate = (value: MessageValue) => (value instanceof Date ? value : new Date(value ?? 0));

function walk(elements: MessageFormatElement[], locale: string, values: MessageValues, count?: number): string {
  let out = '';
  for (const el of elements) {
    switch (el.type) {
      case LITERAL:
        out += el.value;
        break;
      case POUND:
        out += count === undefined ? '#' : numberFormat(locale, {}).format(count);
        break;
      case ARGUMENT: {
        const value = values[el.value];
        out += value instanceof Date ? asDate(value).toLocaleString(locale) : String(value ?? '');
        break;
      }
      case NUMBER:
        out += numberFormat(locale, numberOptions(el.style)).format(Number(values[el.value] ?? 0));
        break;
      case DATE:
        out += new Intl.DateTimeFormat(locale, dateOptions(el.style, DATE_STYLES)).format(asDate(values[el.value]));
        break;
      case TIME:
        out += new Intl.DateTimeFormat(locale, dateOptions(el.style, TIME_STYLES)).format(asDate(values[el.value]));
        break;
      case SELECT: {
        const option = el.options[String(values[el.value])] ?? el.options.other;
        if (option) out += walk(option.value, locale, values, count);
        break;
      }
      case PLURAL: {
        const n = Number(values[el.value] ?? 0);
        const exact = el.options[`=${n}`];
        const category = new Intl.PluralRules(locale, { type: el.pluralType }).select(n - el.offset);
        const option = exact ?? el.options[category] ?? el.options.other;
        if (option) out += walk(option.value, locale, values, n - el.offset);
        break;
      }
      case TAG:
        // Rich text is written as plain text here: the tag's words without the tag.
        out += walk(el.children, locale, values, count);
        break;
    }
  }
  return out;
}

/** The message in the locale with its values filled in. */
export function formatMessage(source: MessageSource, locale: string, values: MessageValues = {}): string {
  return typeof source === 'string' ? source : walk(source, locale, values);
}
