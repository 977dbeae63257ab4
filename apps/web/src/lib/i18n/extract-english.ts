/*
 * The English catalogue, read from the code: every message's id and defaultMessage as
 * `formatjs extract` finds them in the web app's sources, and every screen's title from the route
 * catalogue (`route:<path>`). Node only: `npm run i18n:extract` writes it to messages/en.json and
 * a test checks that file against the code.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROUTE_CATALOGUE } from '../route-catalogue';
/** The English texts by message id, as written (unparsed). */
type Texts = Record<string, string>;
import { routeTitleId } from './route-title-id';

const WEB = resolve(import.meta.dirname, '../../..');
export const MESSAGES_DIR = join(WEB, 'src/lib/i18n/messages');

export function extractEnglish(): Texts {
  const dir = mkdtempSync(join(tmpdir(), 'outlay-messages-'));
  try {
    const out = join(dir, 'en.json');
    const cli = join(WEB, '../../node_modules/@formatjs/cli/bin/formatjs');
    execFileSync(
      process.execPath,
      [
        cli,
        'extract',
        'src/**/*.{ts,tsx}',
        '--ignore',
        '**/*.test.*',
        '--ignore',
        '**/*.d.ts',
        '--format',
        'simple',
        '--out-file',
        out,
      ],
      { cwd: WEB, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const extracted = JSON.parse(readFileSync(out, 'utf8')) as Texts;
    const titles = Object.fromEntries(ROUTE_CATALOGUE.map((r) => [routeTitleId(r.path), r.title]));
    return Object.fromEntries(Object.entries({ ...extracted, ...titles }).sort(([a], [b]) => (a < b ? -1 : 1)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
