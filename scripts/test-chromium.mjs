// Read by the Playwright config and by `npm test`, so both pick the same browser.
import { existsSync } from 'node:fs';

/**
 * The browser for the browser tests, unless CHROMIUM_PATH names one: Debian's headless shell when
 * it is installed (the same Blink in Chromium's lighter headless mode, the one Playwright itself
 * uses for headless tests; the specs ran about a sixth faster in it), otherwise the full Chromium.
 */
export const TEST_CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ??
  '/usr/bin/chromium';
