// Apart from the schemas so the web app's reporter, which every page loads first, can read the
// limits without bringing zod into the first download.

/** Limits the web app's reporter truncates to; anything longer is refused. */
export const ERROR_REPORT_LIMITS = {
  message: 1000,
  stack: 8000,
  componentStack: 8000,
  route: 500,
  userAgent: 512,
} as const;
