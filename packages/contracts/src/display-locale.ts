/**
 * The locale on-screen figures and dates follow: the person's, once the web app knows it. Kept
 * apart from format.ts, whose money arithmetic the first screen does not need, so that setting it
 * costs the sign-in route nothing. Undefined: the runtime's (the browser's).
 */
let current: string | undefined;

export function setDisplayLocale(locale: string | undefined): void {
  current = locale;
}

export const displayLocale = (): string | undefined => current;
