import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@outlay/contracts/languages';
import { extractEnglish, MESSAGES_DIR } from './extract-english';

const read = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(MESSAGES_DIR, `${language}.json`), 'utf8'));

/** The names of a message's arguments ({name}, {count, plural, …}), nested ones too. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      argumentsOf(el.children, into);
      continue;
    }
    into.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select)
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
  }
  return into;
}

describe('message catalogues', () => {
  const english = extractEnglish();

  it('messages/en.json is the English the code writes (npm run i18n:extract rewrites it)', () => {
    expect(read('en')).toEqual(english);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every message, and none the code no longer has', (language) => {
    const messages = read(language);
    expect(
      Object.keys(english).filter((id) => !(id in messages)),
      'missing',
    ).toEqual([]);
    expect(
      Object.keys(messages).filter((id) => !(id in english)),
      'no longer used',
    ).toEqual([]);
    expect(
      Object.entries(messages).filter(([, text]) => text.trim() === ''),
      'empty',
    ).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s: every message is valid ICU and takes the same arguments as the English',
    (language) => {
      const messages = read(language);
      const wrong = Object.entries(english).flatMap(([id, text]) => {
        const want = [...argumentsOf(parse(text))].sort();
        const got = [...argumentsOf(parse(messages[id] ?? ''))].sort();
        return want.join() === got.join() ? [] : [`${id}: ${got.join(', ')} instead of ${want.join(', ')}`];
      });
      expect(wrong).toEqual([]);
    },
  );
});
