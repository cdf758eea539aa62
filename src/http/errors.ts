/**
 * Client-facing errors. Every error response is JSON `{code, error, message, ...details}` where
 * `code` is the HTTP status (as Marquez clients expect) and `error` a stable machine-readable word.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'forbidden'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'limit_exceeded'
  | 'conflict'
  | 'unavailable'
  | 'overloaded'
  | 'timeout'
  | 'internal';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly kind: ErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Response headers that go with the error (e.g. WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): Record<string, unknown> {
    return { code: this.status, error: this.kind, message: this.message, ...this.details };
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, 'bad_request', message, details);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new HttpError(422, 'validation_failed', message, details);
