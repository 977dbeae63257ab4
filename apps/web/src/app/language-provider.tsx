import { DirectionProvider } from '@radix-ui/react-direction';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { setDisplayLocale } from '@outlay/contracts/display-locale';
import { directionOf, type Language } from '@outlay/contracts/languages';
import { useAuth } from '@/lib/current-user';
import { browserLanguage } from '@/lib/i18n/browser-language';
import { loadedMessages, loadMessages, type Messages } from '@/lib/i18n/catalogues';
import { I18nProvider } from '@/lib/i18n/i18n';

/**
 * The person's language and formats over the whole app: theirs once signed in (GET /api/auth/user
 * answers with them), the browser's before. It sets the document's `lang` and `dir`, the direction
 * Radix menus open in, and the locale every formatter follows; a language's catalogue is fetched
 * the first time someone reads it, and until it is there the last one stays on screen.
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { language, locale } = user ? { language: user.language, locale: user.locale } : browserLanguage();
  const [shown, setShown] = useState<{ language: Language; messages: Messages } | null>(() => {
    const messages = loadedMessages(language);
    return messages ? { language, messages } : null;
  });

  useEffect(() => {
    let current = true;
    loadMessages(language).then(
      (messages) => current && setShown({ language, messages }),
      // A catalogue that cannot be fetched (offline) leaves the texts in English, never a blank page.
      () => current && setShown({ language: 'en', messages: {} }),
    );
    return () => {
      current = false;
    };
  }, [language]);

  // What is on screen: the loaded catalogue (the last one while the next is on its way).
  const value = useMemo(() => {
    const active = shown ?? (language === 'en' ? { language, messages: {} } : null);
    if (!active) return null;
    // Formats follow the person's locale once their language shows; until then, the shown language's.
    return {
      language: active.language,
      locale: active.language === language ? locale : active.language,
      messages: active.messages,
    };
  }, [shown, language, locale]);
  setDisplayLocale(value?.locale);

  useEffect(() => {
    if (!value) return;
    document.documentElement.lang = value.language;
    document.documentElement.dir = directionOf(value.language);
  }, [value]);

  if (!value) return null;
  return (
    <I18nProvider value={value}>
      <DirectionProvider dir={directionOf(value.language)}>{children}</DirectionProvider>
    </I18nProvider>
  );
}
