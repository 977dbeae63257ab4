/**
 * Every failed call becomes one ApiError. Its message follows docs/product.md §6.7 ('status: text', where a
 * JSON body's `message` stands for the text), so "contains 401/403" rules keep working; the
 * bare server text is kept apart for toasts that show "the server message".
 */
export class ApiError extends Error {
  readonly status: number;
  readonly serverMessage: string;
  readonly code: string | undefined;
  readonly details: unknown;

  constructor(status: number, text: string, options: { code?: string; details?: unknown } = {}) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = text;
    this.code = options.code;
    this.details = options.details;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Reads a failed response once: the JSON `message` when there is one, else the body text, else the status text. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await res.text();
  } catch {
    // A body that cannot be read leaves us with the status text.
  }
  let message = text.trim();
  let code: string | undefined;
  let details: unknown;
  if (message.startsWith('{')) {
    try {
      const body = JSON.parse(message) as { message?: unknown; code?: unknown; details?: unknown };
      if (typeof body.message === 'string') message = body.message;
      if (typeof body.code === 'string') code = body.code;
      details = body.details;
    } catch {
      // Not JSON after all: the raw text is the message.
    }
  }
  return new ApiError(res.status, message || res.statusText, { code, details });
}

/** The text a toast shows for a failure: the server's words when it sent any, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (isApiError(error)) return error.serverMessage || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
