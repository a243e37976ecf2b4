import { AuthContext, FieldIssue } from '@app/core';
import { Request } from 'express';

/** What the guards attach to a request. */
export interface ApiRequest extends Request {
  auth?: AuthContext;
  /** Action API `ver` (1 or 2). */
  ver?: 1 | 2;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a value can be an id at all (CONTRACTS.md "Ids": a non-empty string of ≤ 64 characters,
 * and no NUL byte, which PostgreSQL refuses in text). Anything else is simply an unknown id.
 */
export const isUsableId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 64 && !v.includes('\u0000');

/** Metadata key holding a handler's action name. */
export const ACTION_NAME = 'fieldwork:action';

/** Keys named like Object.prototype members: class-transformer drops them silently, so they are refused up front. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Half of a UTF-16 surrogate pair without its other half: no Unicode character, no UTF-8 encoding. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The request values {@link unstorableIssue} scanned whole and found plain: no problem, no array
 * with a gap and no key `prototype` (the one key Nest's ValidationPipe strips that the scan lets
 * through). Nest's own two walks over the value (`stripProtoKeys`, `closeArrayGaps`) would then
 * change nothing, and the api's pipe skips them ({@link isScannedPlain}). A WeakSet: an entry lives
 * as long as its request's body.
 */
const SCANNED_PLAIN = new WeakSet<object>();

/**
 * The first problem with a request value that no DTO rule sees: a string holding U+0000 (PostgreSQL
 * text can't store it) or a lone surrogate (it would be stored as U+FFFD, silently changed, and
 * validator's `isEmail` throws on it), a key named like an Object.prototype member (`toString`,
 * `__proto__`…: they would vanish instead of being refused as unknown), or nesting deeper than
 * `maxDepth`. An object value found with no problem, no array gap and no key `prototype` is
 * remembered as plain ({@link isScannedPlain}).
 * @returns the field and the rule it breaks, or null.
 */
export function unstorableIssue(value: unknown, path: string, maxDepth = 32): FieldIssue | null {
  const scan: Scan = { plain: true, root: path, trail: [] };
  const issue = scanned(value, maxDepth, scan);
  if (!issue && scan.plain && typeof value === 'object' && value !== null) SCANNED_PLAIN.add(value);
  return issue;
}

/**
 * Whether `value` is an object {@link unstorableIssue} scanned and found plain: nothing in it for
 * Nest's ValidationPipe to strip (`__proto__`, `constructor` are refused by the scan, `prototype`
 * is not plain) and no sparse array to close (JSON never makes one). Only the very object scanned
 * counts (the action's `data`, a connector body), not one parsed again from the request (Express
 * parses `req.query` on every read).
 */
export const isScannedPlain = (value: unknown): boolean => typeof value === 'object' && value !== null && SCANNED_PLAIN.has(value);

/**
 * A scan in progress: whether what it saw so far is plain, and the keys and indexes from the root
 * to the value it is at — a field's path is only spelled out for an issue (a 1,000-job `data` has
 * ~20,000 values: a path string for each was most of the scan's allocations).
 */
interface Scan {
  plain: boolean;
  readonly root: string;
  readonly trail: Array<string | number>;
}

/** The path of the value a scan is at: `data.jobs[3].destinationName`. */
function pathOf(scan: Scan): string {
  let path = scan.root;
  for (const step of scan.trail) path += typeof step === 'number' ? `[${step}]` : `.${step}`;
  return path;
}

function scanned(value: unknown, maxDepth: number, scan: Scan): FieldIssue | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { field: pathOf(scan), rule: 'must not contain the NUL character' };
    return LONE_SURROGATE.test(value) ? { field: pathOf(scan), rule: 'must be well-formed Unicode: it holds a lone surrogate' } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (maxDepth === 0) return { field: pathOf(scan), rule: 'nested too deeply' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // a gap reads undefined (JSON has neither gaps nor undefined: a value holding either is left to Nest's walk)
      if (item === undefined) scan.plain = false;
      scan.trail.push(i);
      const issue = scanned(item, maxDepth - 1, scan);
      if (issue) return issue;
      scan.trail.pop();
    }
    return null;
  }
  for (const k of Object.keys(value)) {
    if (k.includes('\u0000')) return { field: pathOf(scan), rule: 'a key must not contain the NUL character' };
    if (PROTOTYPE_KEYS.has(k)) return { field: `${pathOf(scan)}.${k}`, rule: 'unknown field' };
    if (k === 'prototype') scan.plain = false;
    scan.trail.push(k);
    const issue = scanned((value as Record<string, unknown>)[k], maxDepth - 1, scan);
    if (issue) return issue;
    scan.trail.pop();
  }
  return null;
}

/** Metadata key holding the files an action may answer instead of JSON ({@link ActionFilesDoc}). */
export const ACTION_FILES = 'fieldwork:action-files';

/** The files an action answers on success besides its JSON answer (createreport, getreport). */
export interface ActionFilesDoc {
  /** media types of the files */
  types: string[];
  description: string;
}

/** Metadata key holding a route's examples ({@link RouteExamplesDoc}). */
export const ROUTE_EXAMPLES = 'fieldwork:route-examples';

/**
 * Examples of a connector route's request and answer, shown in the OpenAPI document beside their
 * schemas (the openapi e2e spec checks each against its schema).
 */
export interface RouteExamplesDoc {
  /** path parameters, by name */
  path?: Record<string, string>;
  /** query parameters, by name, typed as their schemas say (integers as numbers) */
  query?: Record<string, unknown>;
  /** the JSON body */
  body?: unknown;
  /** the success answer, by media type (`application/json`, or a file's type: its text) */
  answer: Record<string, unknown>;
}

/** Metadata key holding a connector stream's documentation ({@link ConnectorStreamDoc}). */
export const CONNECTOR_STREAM = 'fieldwork:connector-stream';

/** How a connector route that answers a stream (`GET /v1/stream`) is documented. */
export interface ConnectorStreamDoc {
  summary: string;
  /** the stream's media type and what it carries */
  produces: { type: string; description: string };
  /** query parameters and headers the handler reads without a DTO, with what they mean */
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** Metadata key holding a public (keyless) route's documentation ({@link PublicRouteDoc}). */
export const PUBLIC_ROUTE = 'fieldwork:public-route';

/** How a public route is documented in the OpenAPI document. */
export interface PublicRouteDoc {
  summary: string;
  /** the success answer's media type(s) and what each is (a route negotiating on `Accept` lists several) */
  produces: { type: string; description: string } | Array<{ type: string; description: string }>;
}
