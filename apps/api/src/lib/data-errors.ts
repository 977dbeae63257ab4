/**
 * Values the database refuses as data (SQLSTATE class 22: a malformed number or date, a number
 * out of range, text it cannot store). Schemas should catch these first; this is the safety
 * net, so that one that slips through is the client's 400, not a 500. Drizzle wraps the
 * driver's error (`DrizzleQueryError`, the original in `cause`); pg and PGlite both carry `code`.
 */
const MESSAGES: Record<string, string> = {
  '22001': 'A text is longer than the database can store',
  '22003': 'A number is too large to store',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is out of range',
  '22021': 'Text contains characters that cannot be stored',
  '22P02': 'A value is not in a form the database accepts',
  '22P05': 'Text contains characters that cannot be stored',
};

export function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The message for a data error, or undefined when the error is something else. */
export function dataErrorMessage(error: unknown): string | undefined {
  const code = sqlStateOf(error);
  if (!code?.startsWith('22')) return undefined;
  return MESSAGES[code] ?? 'A value is not valid';
}
