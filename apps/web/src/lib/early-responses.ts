/**
 * What the page's early script (vite.config.ts, `earlyPreload`) asked the API for while the
 * app's own code was still arriving: with a stored session, the session check, and on / the
 * dashboard's figures and checklist. Each answer is handed over once, to a GET of its path made
 * with the same token while the app starts (src/app/early-start.ts); after that they are closed,
 * so no later read is answered with what was true when the page loaded.
 */
export interface EarlyResponses {
  token: string;
  responses: Record<string, Promise<Response> | undefined>;
}

/** The global the early script writes (its name is shared with vite.config.ts). */
export const EARLY_RESPONSES_GLOBAL = '__outlayEarly';

declare global {
  interface Window {
    [EARLY_RESPONSES_GLOBAL]?: EarlyResponses;
  }
}

/** Drops what was not taken, and tells an early script that runs only now not to ask at all. */
export function closeEarlyResponses() {
  window[EARLY_RESPONSES_GLOBAL] = { token: '', responses: {} };
}

export function takeEarlyResponse(path: string, token: string | null): Promise<Response> | undefined {
  const early = window[EARLY_RESPONSES_GLOBAL];
  if (!early || !token || early.token !== token) return undefined;
  const response = early.responses[path];
  delete early.responses[path];
  return response;
}
