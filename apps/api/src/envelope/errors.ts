import { ErrorKind } from '@app/core';

/** Action status code and HTTP status of each error kind (CONTRACTS.md, "Errors"). */
export function statusOf(kind: ErrorKind): { status: number; http: number } {
  switch (kind) {
    case 'invalid':
      return { status: -1, http: 400 };
    case 'too_large':
      return { status: -1, http: 413 };
    case 'unauthenticated':
      return { status: -2, http: 401 };
    case 'auth_mismatch':
      return { status: -3, http: 401 };
    case 'exists':
      return { status: -4, http: 409 };
    case 'forbidden':
      return { status: -5, http: 403 };
    case 'rate_limited':
      return { status: -6, http: 429 };
    case 'not_found':
      return { status: 1001, http: 404 };
    case 'unavailable':
      return { status: -99, http: 503 };
    default:
      return assertUnreachable(kind);
  }
}

/**
 * The connector's HTTP status of an error kind: as the action API's, except PostgreSQL unavailable,
 * which is a 500 there (the connector's statuses in CONTRACTS.md have no 503).
 */
export function connectorHttpOf(kind: ErrorKind): number {
  return kind === 'unavailable' ? 500 : statusOf(kind).http;
}

function assertUnreachable(x: never): never {
  throw new Error(`unhandled error kind ${String(x)}`);
}

/** Nest's HTTP statuses (raised by Nest or Express itself) as error kinds. */
export function kindOfHttpStatus(http: number): ErrorKind | undefined {
  const map: Record<number, ErrorKind> = {
    400: 'invalid',
    401: 'unauthenticated',
    403: 'forbidden',
    404: 'not_found',
    405: 'not_found',
    409: 'exists',
    413: 'too_large',
    415: 'invalid',
    429: 'rate_limited',
    503: 'unavailable',
  };
  return map[http];
}
