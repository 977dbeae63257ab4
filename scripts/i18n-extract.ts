// Writes the English catalogue from the code and says what each other language lacks or no longer needs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../packages/contracts/src/languages.ts';
import { extractEnglish, MESSAGES_DIR } from '../apps/web/src/lib/i18n/extract-english.ts';

const english = extractEnglish();
writeFileSync(join(MESSAGES_DIR, 'en.json'), `${JSON.stringify(english, null, 2)}\n`);
console.log(`en: ${Object.keys(english).length} messages`);
for (const language of LANGUAGES.filter((l) => l !== 'en')) {
  const file = join(MESSAGES_DIR, `${language}.json`);
  const messages = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const missing = Object.keys(english).filter((id) => !(id in messages));
  const stale = Object.keys(messages).filter((id) => !(id in english));
  console.log(
    `${language}: ${missing.length} missing${missing.length ? ` (${missing.join(', ')})` : ''}, ${stale.length} no longer used${stale.length ? ` (${stale.join(', ')})` : ''}`,
  );
}
