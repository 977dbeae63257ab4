import type { Language } from '@outlay/contracts/languages';
import type { MessageSource } from './format-message';

/** A catalogue: each message by its id, parsed from ICU MessageFormat when the app is built. */
export type Messages = Record<string, MessageSource>;

/*
 * English is written in the code (each message's defaultMessage), so it needs no catalogue and
 * costs nothing to load; each other language is its own chunk, fetched when a person reads it.
 */
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>> = {
  de: () => import('./messages/de.json'),
  fr: () => import('./messages/fr.json'),
  ar: () => import('./messages/ar.json'),
};

const loaded = new Map<Language, Messages>([['en', {}]]);

/** The catalogue of a language once it has been fetched, else undefined. */
export const loadedMessages = (language: Language): Messages | undefined => loaded.get(language);

/** The catalogue of a language, fetched once. */
export async function loadMessages(language: Language): Promise<Messages> {
  const known = loaded.get(language);
  if (known) return known;
  const messages = (await loaders[language as Exclude<Language, 'en'>]()).default;
  loaded.set(language, messages);
  return messages;
}
