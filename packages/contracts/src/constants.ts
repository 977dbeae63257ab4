/** Business constants and limits (docs/product.md §6.8) and the product's security limits (docs/product.md §2). */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ISSUER = 'Outlay';
export const RECOVERY_CODE_COUNT = 10;
export const STRENGTH_MAX = 5;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_IDLE_TTL_SECONDS = 7 * 24 * 60 * 60;
export const PASSWORD_CHANGE_TOKEN_TTL_SECONDS = 10 * 60;
export const TWO_FACTOR_TOKEN_TTL_SECONDS = 5 * 60;
export const TWO_FACTOR_MAX_ATTEMPTS = 5;
export const TEMP_PASSWORD_TTL_HOURS = 72;
export const STEP_UP_WINDOW_SECONDS = 10 * 60;

export const LOGIN_LOCKOUT = {
  maxFailuresPerUsername: 5,
  maxFailuresPerIp: 100,
  windowMinutes: 15,
  lockMinutes: 15,
} as const;

/** Client-side timings (docs/product.md §6.8). */
export const USER_FETCH_TIMEOUT_MS = 10_000;
export const USER_QUERY_STALE_MS = 5 * 60_000;
export const USER_QUERY_GC_MS = 10 * 60_000;
export const DEFAULT_QUERY_STALE_MS = 10 * 60_000;
export const QUERY_RETRY_BASE_MS = 1000;
export const QUERY_RETRY_MAX_MS = 30_000;
export const REDIRECT_AFTER_LOGIN_MS = 500;
export const REDIRECT_AFTER_PASSWORD_CHANGE_MS = 2000;
export const REDIRECT_AFTER_2FA_ENABLE_MS = 2000;
export const NAV_TOOLTIP_DELAY_MS = 200;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = 'F8';
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const SELECT_TYPEAHEAD_RESET_MS = 1000;
export const SELECT_SCROLL_REPEAT_MS = 50;

/** The demo world's authorized domains (docs/product.md §1.2); the live list is a setting. */
export const DEMO_AUTHORIZED_DOMAINS = [
  'meridiangroup.com',
  'meridianlogistics.com',
  'meridianenergy.com',
  'meridianfoods.com',
  'meridiantech.com',
] as const;
