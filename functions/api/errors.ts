import type { z } from 'zod';

/** Every failure the API reports, with the HTTP status it is sent with. */
export const ERROR_STATUS = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'payload-too-large': 413,
  'too-many-requests': 429,
  'internal-error': 500,
  'not-implemented': 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiErrorBody {
  error: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ApiErrorBody {
    return this.data === undefined ? { error: this.code, message: this.message } : { error: this.code, message: this.message, data: this.data };
  }
}

/** Anything of another account is reported exactly like something that does not exist. */
export function notFound(what: string, id?: unknown): ApiError {
  return new ApiError('not-found', `${what} not found`, id === undefined ? undefined : { id });
}

export interface InvalidField {
  path: string;
  message: string;
}

/** `args.0.name` style paths, so a caller sees which argument and which field is wrong. */
export function invalidFields(issues: z.core.$ZodIssue[], prefix = 'args'): InvalidField[] {
  return issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

export function badRequest(message: string, fields: InvalidField[]): ApiError {
  return new ApiError('bad-request', message, { fields });
}
