import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { Language } from '@outlay/contracts/languages';
import type { Messages } from './catalogues';
import { formatMessage, type MessageSource, type MessageValues } from './format-message';

/** A message of the code: its id and its English (parsed when the app is built). */
export interface Message {
  id: string;
  defaultMessage: MessageSource;
}

interface I18nState {
  language: Language;
  /** The BCP 47 tag figures and dates are written in. */
  locale: string;
  /** The language's catalogue; English has none: the code's own text is the English. */
  messages: Messages;
}

const I18nContext = createContext<I18nState>({ language: 'en', locale: 'en', messages: {} });

export function I18nProvider({ value, children }: { value: I18nState; children: ReactNode }) {
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export interface I18n {
  language: Language;
  locale: string;
  /** The message in the person's language, with its values filled in. */
  t: (message: Message, values?: MessageValues) => string;
}

export function useI18n(): I18n {
  const { language, locale, messages } = useContext(I18nContext);
  const t = useCallback(
    (message: Message, values?: MessageValues) =>
      formatMessage(messages[message.id] ?? message.defaultMessage, locale, values),
    [messages, locale],
  );
  return useMemo(() => ({ language, locale, t }), [language, locale, t]);
}
