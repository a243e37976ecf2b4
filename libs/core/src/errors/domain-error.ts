/**
 * Error kinds the domain raises. Shared libs throw {@link DomainError} only — never
 * `HttpException` — because the worker runs them too; the api maps each kind to an action
 * status and an HTTP status in one place (CONTRACTS.md, "Errors").
 */
export type ErrorKind =
  | 'invalid' // -1 / 400
  | 'unauthenticated' // -2 / 401
  | 'auth_mismatch' // -3 / 401
  | 'exists' // -4 / 409
  | 'forbidden' // -5 / 403
  | 'rate_limited' // -6 / 429
  | 'not_found' // 1001 / 404
  | 'too_large' // -1 / 413
  | 'unavailable'; // -99 / 503

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** The request field the error is about, e.g. `data.username`. */
    readonly field?: string,
    /** The rule `field` broke, e.g. `must be an integer`; the message is then `${field}: ${rule}`. */
    readonly rule?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A field and the rule it broke, as validators report them. */
export interface FieldIssue {
  field: string;
  rule: string;
}

/** `-1`: a field broke a rule. The message names the field and the rule. */
export const invalid = (field: string, rule: string) => new DomainError('invalid', `${field}: ${rule}`, field, rule);

/**
 * `-1` for several broken rules at once: the message names them all (`a: r1; b: r2`), `field` and
 * `rule` are the first's. An empty list reads `${fallback}: invalid`.
 */
export function invalidAll(issues: FieldIssue[], fallback = 'data'): DomainError {
  const [first = { field: fallback, rule: 'invalid' }] = issues;
  const e = invalid(first.field, first.rule);
  if (issues.length > 1) e.message = issues.map((i) => `${i.field}: ${i.rule}`).join('; ');
  return e;
}
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const exists = (message: string, field?: string, rule?: string) => new DomainError('exists', message, field, rule);

/** `-6`/429: a rate limit was reached; `retryAfterS` goes out as `Retry-After`. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super('rate_limited', message);
  }
}
