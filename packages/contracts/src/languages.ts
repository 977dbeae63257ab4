/**
 * The languages Outlay is written in, and the formats a person reads figures in. A language is
 * one of four catalogues; a locale is any BCP 47 tag the runtime knows (de-CH, fr-BE, ar-AE), and
 * it may carry Unicode extensions for the numbering system and the first day of the week
 * (`ar-AE-u-nu-latn` for Latin digits, `en-GB-u-fw-sun` for weeks from Sunday). No zod here: the
 * web app's first screen reads these, and their schemas are with the other fields in primitives.ts.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language in its own words, as a language menu lists them. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar']);

/** The writing direction of the language's text: the document's `dir`. */
export const directionOf = (language: Language): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr');

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

export const LANGUAGE_MESSAGE = 'Choose English, German, French or Arabic (en, de, fr or ar)';
export const LOCALE_MESSAGE = 'Enter a locale as a BCP 47 tag, such as de-CH or en-GB';

/** The tag in its canonical spelling (de-ch → de-CH), or null when it is not a well-formed BCP 47 tag. */
export function canonicalLocale(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.trim());
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** The language a locale tag is written in, when it is one of Outlay's (de-CH → de); else null. */
export function languageOfLocale(tag: string): Language | null {
  const canonical = canonicalLocale(tag);
  if (!canonical) return null;
  const language = new Intl.Locale(canonical).language;
  return isLanguage(language) ? language : null;
}

/** The first of the tags, in the order given (a browser's preference), whose language Outlay has. */
export function firstLanguageOf(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const language = languageOfLocale(tag);
    if (language) return language;
  }
  return null;
}

/**
 * A person's language and formats: what they chose, else what their browser asks for when it is
 * one of the four, else English; formats follow their chosen locale, else the browser's first tag
 * in that language, else the language itself.
 */
export function resolveLanguage(
  stored: { language: string | null; locale: string | null },
  browserTags: readonly string[],
): { language: Language; locale: string } {
  const language = isLanguage(stored.language) ? stored.language : (firstLanguageOf(browserTags) ?? DEFAULT_LANGUAGE);
  const locale =
    (stored.locale && canonicalLocale(stored.locale)) ||
    browserTags.map(canonicalLocale).find((tag) => tag !== null && languageOfLocale(tag) === language) ||
    language;
  return { language, locale };
}

/** The numbering systems a person may read figures in: Latin (0-9) or Arabic-Indic (٠-٩). */
export const DIGITS = ['latn', 'arab'] as const;
export type Digits = (typeof DIGITS)[number];

/** The digits a locale writes figures with (its `nu` extension, else the locale's own default). */
export function digitsOf(locale: string): Digits {
  const canonical = canonicalLocale(locale) ?? DEFAULT_LANGUAGE;
  const system = new Intl.NumberFormat(canonical).resolvedOptions().numberingSystem;
  return system === 'arab' ? 'arab' : 'latn';
}

/** The same locale with its figures in the given digits (ar-AE + latn → ar-AE-u-nu-latn); other extensions stay. */
export function withDigits(locale: string, digits: Digits): string {
  return new Intl.Locale(canonicalLocale(locale) ?? DEFAULT_LANGUAGE, { numberingSystem: digits }).toString();
}

/** Week days as the `fw` extension names them, Monday first as ISO 8601 counts (1 = Monday … 7 = Sunday). */
const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const FIRST_DAY = /-u(?:-[a-z0-9]{2,8})*?-fw-([a-z]{3})(?=-|$)/i;

/**
 * The first day of the week (1 = Monday … 7 = Sunday): the locale's `fw` extension when it has
 * one, else its region's custom as the runtime knows it, else Monday.
 */
export function firstDayOfWeek(locale: string): number {
  const canonical = canonicalLocale(locale) ?? DEFAULT_LANGUAGE;
  const named = FIRST_DAY.exec(canonical)?.[1]?.toLowerCase();
  const index = WEEK_DAYS.indexOf(named as (typeof WEEK_DAYS)[number]);
  if (index >= 0) return index + 1;
  const info = new Intl.Locale(canonical) as Intl.Locale & {
    getWeekInfo?: () => { firstDay: number };
    weekInfo?: { firstDay: number };
  };
  return info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay ?? 1;
}

/** The same locale with weeks starting on the given day (1 = Monday … 7 = Sunday). */
export function withFirstDayOfWeek(locale: string, day: number): string {
  const canonical = canonicalLocale(locale) ?? DEFAULT_LANGUAGE;
  const code = WEEK_DAYS[day - 1];
  if (!code) return canonical;
  const without = canonical.replace(/-fw-[a-z]{3}(?=-|$)/i, '').replace(/-u$/, '');
  return canonicalLocale(
    without.includes('-u-') ? without.replace('-u-', `-u-fw-${code}-`) : `${without}-u-fw-${code}`,
  )!;
}
