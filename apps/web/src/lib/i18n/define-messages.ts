import type { Message } from './i18n';

/**
 * A screen's messages: an id and the English text (ICU MessageFormat) each. The name is what
 * `formatjs extract` reads the English catalogue from, and what the build parses the English of.
 */
export function defineMessages<const T extends Record<string, { id: string; defaultMessage: string }>>(
  messages: T,
): { readonly [K in keyof T]: Message } {
  return messages;
}
