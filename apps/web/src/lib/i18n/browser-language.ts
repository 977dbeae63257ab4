import { resolveLanguage, type Language } from '@outlay/contracts/languages';

/** The language tags the browser asks for, most wanted first. */
export const browserTags = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

/** What a person who chose nothing reads: their browser's language when Outlay has it, else English, and its formats. */
export const browserLanguage = (): { language: Language; locale: string } =>
  resolveLanguage({ language: null, locale: null }, browserTags());

/** A locale tag without its extensions (de-CH-u-fw-mon → de-CH): the regional formats it names. */
export const regionOf = (locale: string): string => new Intl.Locale(locale).baseName;
