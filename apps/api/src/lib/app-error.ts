import { ERROR_STATUS, type ErrorCode } from '@outlay/contracts';

/** The one way the API refuses: a code from the contracts' vocabulary, its status, a clear message. */
export class AppError extends Error {
  readonly status: number;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    options: { message: string; details?: unknown; headers?: Record<string, string> },
  ) {
    super(options.message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers;
  }
}
