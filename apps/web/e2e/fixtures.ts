import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Locator, type Page, type Request } from '@playwright/test';

export const PASSWORD = 'Meridian!2026';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', 'test-results', 'screenshots');
export const MOBILE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * Accounts are split between spec files so that lockouts (5 failures per username) and
 * state changes (first-time password, 2FA, password changes) never collide:
 *   rita: sign-in success, requester menus     max: one wrong password, logout, forceLogin
 *   adam: admin menus, mobile                   olivia: every route, screenshots
 *   nina: first-time password                   henry: forced dialog (changes his password)
 *   grace: profile + password change            klara (staff): 2FA setup and 2FA sign-in
 *   carla: session refresh and bridge           dana: accessibility of the dashboard
 */
export interface LoginBody {
  message: string;
  requirePasswordChange: boolean;
  tokens?: { accessToken: string; refreshToken: string };
  deviceId?: string;
  userId?: string;
  passwordChangeToken?: string;
  requireTwoFactor?: boolean;
  twoFactorToken?: string;
}

export async function apiLogin(request: APIRequestContext, username: string, password = PASSWORD): Promise<LoginBody> {
  const res = await request.post('/api/auth/login', { data: { username, password } });
  expect(res.status(), `login ${username}: ${await res.text()}`).toBe(200);
  return (await res.json()) as LoginBody;
}

/** Signs in through the API and hands the session to the page, as /auth would store it. */
export async function signInAs(page: Page, username: string, password = PASSWORD, path = '/') {
  const body = await apiLogin(page.request, username, password);
  expect(body.tokens, `${username} should get tokens`).toBeTruthy();
  await page.goto('/auth-success');
  await page.evaluate(({ tokens, deviceId }) => {
    localStorage.setItem('accessToken', tokens!.accessToken);
    localStorage.setItem('refreshToken', tokens!.refreshToken);
    localStorage.setItem('deviceId', deviceId!);
  }, body);
  await page.goto(path);
  return body;
}

/** Signs in through the form, the way a person does. */
export async function signInWithForm(page: Page, username: string, password = PASSWORD) {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

export function toast(page: Page) {
  return page.getByTestId('toast').first();
}

export async function expectToast(page: Page, title: string, description?: string) {
  const t = toast(page);
  await expect(t).toContainText(title);
  if (description) await expect(t).toContainText(description);
}

export async function snap(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  const size = width < 600 ? 'mobile' : 'desktop';
  await page.evaluate(() => document.fonts?.ready);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
}

/**
 * Like waitForLoadState('networkidle'), but ignoring the live event stream (GET /api/events/stream),
 * which stays open for as long as the page listens and so never lets the network go idle.
 */
export async function networkQuiet(page: Page, quietMs = 500, timeoutMs = 15_000) {
  const inflight = new Set<Request>();
  const start = (r: Request) => {
    if (!r.url().includes('/api/events/stream')) inflight.add(r);
  };
  const end = (r: Request) => inflight.delete(r);
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  try {
    await page.waitForLoadState('load');
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      await page.waitForTimeout(100);
      if (inflight.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
}

/**
 * Types into a searching combobox and picks an option. The list opens on the previous search's
 * items and re-renders when the server answers, so a click can land on a row that has just moved
 * (the list then stays open, or closes on nothing). Waits until every option shows the typed text,
 * and picks again until the list has closed with the field showing the option.
 */
export async function pickSearched(page: Page, box: Locator, text: string, option: RegExp) {
  const typed = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  await expect(async () => {
    if ((await box.getAttribute('aria-expanded')) !== 'true' || (await box.inputValue()) !== text) await box.fill(text);
    await expect(page.getByRole('option').filter({ hasNotText: typed })).toHaveCount(0, { timeout: 3_000 });
    await page.getByRole('option', { name: option }).first().click({ timeout: 2_000 });
    await expect(box).toHaveAttribute('aria-expanded', 'false', { timeout: 1_000 });
    await expect(box).toHaveValue(option, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Picks an option of a select with the keyboard, as a keyboard user does. A long list opens
 * scrolled, between buttons that scroll it while the pointer is over them, and on a busy machine a
 * click on its lower rows was seen to leave the list open with nothing chosen; the arrow keys
 * reach the row wherever it is.
 */
export async function pickOption(page: Page, select: Locator, option: string) {
  await select.focus();
  await page.keyboard.press('Enter');
  const target = page.getByRole('listbox').getByRole('option', { name: option, exact: true });
  await expect(target).toHaveCount(1);
  const all = page.getByRole('listbox').getByRole('option');
  const options = await all.count();
  // The list takes arrow keys once it has put the focus on an option (its current choice): a key
  // pressed before that, on a busy machine, moved nothing and the walk below ran out of presses.
  await expect
    .poll(() => all.evaluateAll((els) => els.some((el) => el === document.activeElement)), {
      message: 'the open list focuses an option',
    })
    .toBe(true);
  // The list opens on the current choice: go up to an option above it, down to one below.
  const [at, wanted] = await all.evaluateAll(
    (els, name) => [
      els.findIndex((el) => el === document.activeElement),
      els.findIndex((el) => el.textContent?.trim() === name),
    ],
    option,
  );
  const key = at > wanted ? 'ArrowUp' : 'ArrowDown';
  for (let i = 0; i < options && !(await target.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press(key);
  await expect(target).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(select).toHaveText(option);
}

/**
 * axe-core's serious and critical violations on the page as it is now, with every default rule
 * on, each as "rule (impact): help → the elements"; `alsoRules` adds those rules' findings
 * whatever their impact.
 */
export async function seriousViolations(page: Page, alsoRules: readonly string[] = []): Promise<string[]> {
  // A list refetching is dimmed on purpose; judge contrast once the data has arrived.
  await networkQuiet(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || alsoRules.includes(v.id))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} → ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')}`,
    );
}

/** axe-core: no serious or critical violations (the accessibility bar). */
export async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * Nothing scrolls sideways: not the page (its scrolling element no wider than the window), and
 * no box inside `within` (main by default; a dialog's selector for a dialog) whose content is
 * wider than it, as a table or chart in a card that scrolls would be. Names what does.
 */
export async function expectNoSidewaysScroll(page: Page, within = 'main') {
  // Measured until the layout settles: right after a resize the page may still be laid out for
  // the old width for a frame or two; what still scrolls once settled is named in the failure.
  const measure = () =>
    page.evaluate((selector) => {
      const found: string[] = [];
      const root = document.scrollingElement ?? document.documentElement;
      if (root.scrollWidth > window.innerWidth) {
        // Name the innermost boxes that reach past the window's right edge: they are what makes it scroll.
        const past = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
          (el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.sr-only'),
        );
        const innermost = past.filter((el) => !past.some((other) => other !== el && el.contains(other))).slice(0, 5);
        const what = innermost.map(
          (el) =>
            `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}" to ${Math.round(el.getBoundingClientRect().right)}px`,
        );
        found.push(`the page: ${root.scrollWidth}px in a ${window.innerWidth}px window (${what.join('; ')})`);
      }
      const boxes = [...document.querySelectorAll<HTMLElement>(selector)].flatMap((el) => [
        el,
        ...el.querySelectorAll<HTMLElement>('*'),
      ]);
      for (const el of boxes) {
        if (el.closest('.sr-only') || el.clientWidth === 0) continue;
        const overflow = getComputedStyle(el).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
          const name =
            el.getAttribute('data-testid') ??
            el.getAttribute('aria-label') ??
            String(el.className).split(' ').slice(0, 4).join('.');
          found.push(`${el.tagName.toLowerCase()} [${name}]: ${el.scrollWidth}px of content in ${el.clientWidth}px`);
        }
      }
      return found;
    }, within);
  await expect.poll(measure, { message: `scrolls sideways at ${page.viewportSize()?.width}px` }).toEqual([]);
}

/** The element's box lies inside the window, every edge of it. */
export async function expectInViewport(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, 'the element is drawn').not.toBeNull();
  const { x, y, width, height } = box!;
  const where = `${JSON.stringify(box)} in ${viewport.width}×${viewport.height}`;
  expect(x, `left edge: ${where}`).toBeGreaterThanOrEqual(0);
  expect(y, `top edge: ${where}`).toBeGreaterThanOrEqual(0);
  expect(x + width, `right edge: ${where}`).toBeLessThanOrEqual(viewport.width);
  expect(y + height, `bottom edge: ${where}`).toBeLessThanOrEqual(viewport.height);
}

export async function storedTokens(page: Page) {
  return page.evaluate(() => ({
    accessToken: localStorage.getItem('accessToken'),
    refreshToken: localStorage.getItem('refreshToken'),
    deviceId: localStorage.getItem('deviceId'),
  }));
}

export async function currentUser(request: APIRequestContext, body: LoginBody) {
  const res = await request.get('/api/auth/user', {
    headers: { Authorization: `Bearer ${body.tokens!.accessToken}`, 'X-Device-ID': body.deviceId! },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { firstName: string; lastName: string; email: string; role: string; username: string };
}

/** An API client signed in as `username`: each call must succeed, and says who failed what. */
export type Api = {
  get: <T>(url: string) => Promise<T>;
  post: <T>(url: string, data?: unknown, headers?: Record<string, string>) => Promise<T>;
  put: <T>(url: string, data?: unknown) => Promise<T>;
};

export async function apiAs(request: APIRequestContext, username: string): Promise<Api> {
  const login = await apiLogin(request, username);
  const headers = { Authorization: `Bearer ${login.tokens!.accessToken}`, 'X-Device-ID': login.deviceId! };
  const check = async (what: string, res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(res.ok(), `${username} ${what}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as never;
  };
  return {
    get: async (url) => check(`GET ${url}`, await request.get(url, { headers })),
    post: async (url, data = {}, extra = {}) =>
      check(`POST ${url}`, await request.post(url, { headers: { ...headers, ...extra }, data })),
    put: async (url, data = {}) => check(`PUT ${url}`, await request.put(url, { headers, data })),
  };
}

/** A page of its own browser context, signed in as `username` (two people side by side). */
export async function pageAs(browser: Browser, username: string, path: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInAs(page, username, undefined, path);
  return page;
}
