import { ErrorKind } from '@app/core';
import type { ResponsesObject, SchemaObject } from 'openapi3-ts/oas30';
import { connectorHttpOf, statusOf } from '../envelope/errors';

/**
 * What each error kind means to a caller. A `Record` over the union, so a new kind fails to
 * compile until it is described here; its codes come from {@link statusOf}, the one mapping.
 */
const KIND_MEANING: Record<ErrorKind, string> = {
  invalid: 'a field or parameter broke a rule (the message names it), or the JSON is malformed',
  too_large: 'the body is over 5 MB',
  unauthenticated: 'missing, unknown, revoked key or deactivated member',
  auth_mismatch: '`auth.usr` is not the key’s member, or the header and `auth.key` name different keys',
  exists: 'already exists (a username or `device_id` taken, a duplicate) — only where the call writes unique fields',
  forbidden: 'the caller’s role may not do this, or a plan limit',
  rate_limited: 'rate limit reached; retry after `Retry-After` seconds',
  not_found: 'an id or member the call names is unknown (or another company’s) — only where the call names one',
  unavailable: 'PostgreSQL is unreachable; retry later',
};

interface ErrorCase {
  kind: ErrorKind | 'server';
  status: number;
  http: number;
  meaning: string;
}

/** Every error the surfaces answer: the kinds of CONTRACTS.md "Errors", plus an unexpected failure (-99/500). */
export function errorCases(): ErrorCase[] {
  const cases: ErrorCase[] = (Object.keys(KIND_MEANING) as ErrorKind[]).map((kind) => ({
    kind,
    ...statusOf(kind),
    meaning: KIND_MEANING[kind],
  }));
  cases.push({
    kind: 'server',
    status: -99,
    http: 500,
    meaning: 'unexpected server failure (the message carries an error id that is logged)',
  });
  return cases.sort((a, b) => a.http - b.http || b.status - a.status);
}

const retryAfter = { 'Retry-After': { description: 'seconds until the budget renews', schema: { type: 'integer' } } } as const;

/**
 * Error responses of an action, by HTTP status: `{status, error}` with the negative (or 1001)
 * `status` codes that HTTP status carries, each with what it means.
 */
export function actionErrorResponses(): ResponsesObject {
  const out: ResponsesObject = {};
  const byHttp = new Map<number, ErrorCase[]>();
  for (const c of errorCases()) {
    const meaning = c.kind === 'invalid' ? `${c.meaning}, or \`ver\` is not 1 or 2` : c.meaning;
    byHttp.set(c.http, [...(byHttp.get(c.http) ?? []), { ...c, meaning }]);
  }
  for (const [http, cases] of byHttp) {
    const schema: SchemaObject = {
      type: 'object',
      required: ['status', 'error'],
      properties: {
        status: { type: 'integer', enum: [...new Set(cases.map((c) => c.status))] },
        error: { type: 'string', description: 'a sentence naming the field and the rule' },
      },
    };
    out[String(http)] = {
      description: cases.map((c) => `\`${c.status}\`: ${c.meaning}`).join('; '),
      content: { 'application/json': { schema } },
      ...(http === 429 ? { headers: retryAfter } : {}),
    };
  }
  return out;
}

/**
 * Error responses of a connector route, by HTTP status: `{error: {message}}`. Not `auth_mismatch`:
 * the connector takes the key from the header only, so there is nothing to mismatch. PostgreSQL
 * unavailable is a 500 here (no 503 on the connector).
 */
export function connectorErrorResponses(): ResponsesObject {
  const out: ResponsesObject = {};
  for (const c of errorCases().filter((e) => e.kind !== 'auth_mismatch')) {
    const key = String(c.kind === 'server' ? c.http : connectorHttpOf(c.kind));
    const previous = out[key] as { description: string } | undefined;
    out[key] = {
      description: previous ? `${previous.description}; ${c.meaning}` : c.meaning,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ConnectorError' } } },
      ...(key === '429' ? { headers: retryAfter } : {}),
    };
  }
  return out;
}
