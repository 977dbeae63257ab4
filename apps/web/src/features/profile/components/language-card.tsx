import { useMemo, useState } from 'react';
import type { Profile } from '@outlay/contracts/auth';
import { formatters } from '@outlay/contracts/format';
import {
  canonicalLocale,
  digitsOf,
  firstDayOfWeek,
  LANGUAGE_NAMES,
  LANGUAGES,
  withDigits,
  withFirstDayOfWeek,
  type Digits,
  type Language,
} from '@outlay/contracts/languages';
import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { browserLanguage, regionOf } from '@/lib/i18n/browser-language';
import { defineMessages } from '@/lib/i18n/define-messages';
import { useUpdateProfileMutation } from '../api/profile';
import { useI18n } from '@/lib/i18n/i18n';

const BROWSER = 'browser';
const REGION = 'region';

/** The regional formats offered; any other BCP 47 tag still arrives from a browser. */
const FORMATS = [
  'en-US',
  'en-GB',
  'en-IE',
  'en-IN',
  'de-DE',
  'de-AT',
  'de-CH',
  'fr-FR',
  'fr-BE',
  'fr-CH',
  'fr-CA',
  'ar-AE',
  'ar-SA',
  'ar-EG',
] as const;

const m = defineMessages({
  title: { id: 'profile.language.title', defaultMessage: 'Language and formats' },
  description: {
    id: 'profile.language.description',
    defaultMessage:
      'The language Outlay speaks to you in, on screen and in your e-mails, and how figures, dates and weeks are written.',
  },
  language: { id: 'profile.language.language', defaultMessage: 'Language' },
  browserLanguage: { id: 'profile.language.browserLanguage', defaultMessage: 'As my browser ({name})' },
  formats: { id: 'profile.language.formats', defaultMessage: 'Formats' },
  browserFormats: { id: 'profile.language.browserFormats', defaultMessage: 'As my browser ({name})' },
  digits: { id: 'profile.language.digits', defaultMessage: 'Digits' },
  latin: { id: 'profile.language.latin', defaultMessage: 'Latin (0123456789)' },
  arabicIndic: { id: 'profile.language.arabicIndic', defaultMessage: 'Arabic-Indic (٠١٢٣٤٥٦٧٨٩)' },
  firstDay: { id: 'profile.language.firstDay', defaultMessage: 'Weeks start on' },
  regionDay: { id: 'profile.language.regionDay', defaultMessage: 'As the formats say ({day})' },
  preview: { id: 'profile.language.preview', defaultMessage: 'Example: {amount} · {date} · weeks start on {day}' },
  save: { id: 'profile.language.save', defaultMessage: 'Save language and formats' },
  saving: { id: 'profile.language.saving', defaultMessage: 'Saving…' },
  saved: { id: 'profile.language.saved', defaultMessage: 'Language and formats saved' },
  savedDetail: { id: 'profile.language.savedDetail', defaultMessage: 'Outlay now speaks {name} to you.' },
  error: { id: 'profile.language.error', defaultMessage: 'Error' },
  notSaved: { id: 'profile.language.notSaved', defaultMessage: 'Your language and formats could not be saved' },
});

/** The week day's name (1 = Monday … 7 = Sunday) in the locale. */
function dayName(day: number, locale: string): string {
  // 2026-11-30 was a Monday.
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2026, 10, 29 + day)),
  );
}

/**
 * A person's language (on screen and in their e-mails) and formats (figures, dates, the first day
 * of the week, Latin or Arabic-Indic digits), kept on the server. "As my browser" stores nothing,
 * so a person who moves to another browser gets its choice.
 */
export function LanguageCard({ profile }: { profile: Profile }) {
  const { t, language: uiLocale } = useI18n();
  const update = useUpdateProfileMutation();
  const browser = useMemo(() => browserLanguage(), []);
  const stored = profile.chosenLocale ? canonicalLocale(profile.chosenLocale) : null;
  const storedBase = stored ? regionOf(stored) : null;

  const [language, setLanguage] = useState<string>(profile.chosenLanguage ?? BROWSER);
  const [format, setFormat] = useState<string>(storedBase ?? BROWSER);
  const base = format === BROWSER ? regionOf(browser.locale) : format;
  const [digits, setDigits] = useState<Digits>(stored ? digitsOf(stored) : digitsOf(base));
  const [day, setDay] = useState<string>(() => {
    const fw = stored && /-fw-/.test(stored) ? firstDayOfWeek(stored) : null;
    return fw ? String(fw) : REGION;
  });

  // What would be stored: nothing where every part follows the browser or the region.
  const chosenLocale = (() => {
    let tag = base;
    if (digits !== digitsOf(base)) tag = withDigits(tag, digits);
    if (day !== REGION) tag = withFirstDayOfWeek(tag, Number(day));
    return format === BROWSER && tag === base ? null : tag;
  })();
  const effectiveLocale = chosenLocale ?? browser.locale;
  const chosenLanguage = language === BROWSER ? null : (language as Language);
  const changed = chosenLanguage !== profile.chosenLanguage || chosenLocale !== (profile.chosenLocale ?? null);

  const displayNames = useMemo(() => new Intl.DisplayNames([uiLocale], { type: 'language' }), [uiLocale]);
  const nameOf = (tag: string) => displayNames.of(tag) ?? tag;
  const languageOptions = [
    { value: BROWSER, label: t(m.browserLanguage, { name: LANGUAGE_NAMES[browser.language] }) },
    ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
  ];
  const formatOptions = [
    { value: BROWSER, label: t(m.browserFormats, { name: nameOf(browser.locale) }) },
    ...FORMATS.map((tag) => ({ value: tag, label: nameOf(tag) })),
  ];
  const regionDay = firstDayOfWeek(base);
  const dayOptions = [
    { value: REGION, label: t(m.regionDay, { day: dayName(regionDay, uiLocale) }) },
    ...[1, 6, 7].map((d) => ({ value: String(d), label: dayName(d, uiLocale) })),
  ];
  const sample = formatters(effectiveLocale);

  const save = async () => {
    try {
      const saved = await update.mutateAsync({
        firstName: profile.firstName,
        lastName: profile.lastName,
        email: profile.email,
        phoneNumber: profile.phoneNumber ?? '',
        language: chosenLanguage,
        locale: chosenLocale,
      });
      toast({
        variant: 'success',
        title: t(m.saved),
        description: t(m.savedDetail, { name: LANGUAGE_NAMES[saved.language] }),
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t(m.error),
        description: messageOf(error, t(m.notSaved)),
      });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t(m.title)}</CardTitle>
        <CardDescription>{t(m.description)}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <SelectField
            id="profile-language"
            label={t(m.language)}
            options={languageOptions}
            value={language}
            onChange={setLanguage}
          />
          <SelectField
            id="profile-formats"
            label={t(m.formats)}
            options={formatOptions}
            value={format}
            onChange={(next) => {
              setFormat(next);
              const nextBase = next === BROWSER ? regionOf(browser.locale) : next;
              setDigits(digitsOf(nextBase));
            }}
          />
          <SelectField
            id="profile-digits"
            label={t(m.digits)}
            options={[
              { value: 'latn', label: t(m.latin) },
              { value: 'arab', label: t(m.arabicIndic) },
            ]}
            value={digits}
            onChange={(next) => setDigits(next as Digits)}
          />
          <SelectField
            id="profile-first-day"
            label={t(m.firstDay)}
            options={dayOptions}
            value={day}
            onChange={setDay}
          />
        </div>
        <p className="text-sm text-muted-foreground" data-testid="format-preview">
          {t(m.preview, {
            amount: sample.money('1250.00', 'EUR'),
            date: sample.date('2026-12-06'),
            day: dayName(firstDayOfWeek(effectiveLocale), uiLocale),
          })}
        </p>
        <Button
          type="button"
          className="self-start"
          onClick={() => void save()}
          disabled={!changed || update.isPending}
        >
          {update.isPending ? t(m.saving) : t(m.save)}
        </Button>
      </CardContent>
    </Card>
  );
}
