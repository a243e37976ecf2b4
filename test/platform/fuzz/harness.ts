import Ajv, { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { arbitraryOf, Components, resolve, Schema } from './schema-arbitrary';
import { mutated, nastyStrings, nastyValues } from './mutations';

/** The parts of the OpenAPI document the harness reads. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Components };
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  'x-surface'?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

/** One operation of the document: `POST /api/getjobs`, `GET /v1/jobs/{id}`… */
export interface FuzzOperation {
  name: string;
  method: string;
  path: string;
  /** `public`: keyless routes outside /api and /v1 (share links), errors in the action shape */
  surface: 'action' | 'connector' | 'public';
  op: Operation;
}

/** A request as sent: everything already serialised (so odd encodings survive). */
export interface FuzzRequest {
  method: string;
  /** path with ids substituted and the query string appended, as it goes on the wire */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the harness knows of the company it fuzzes as. */
export interface FuzzContext {
  key: string;
  username: string;
  /** ids that exist (jobs, members), so ids in paths and bodies sometimes hit real rows */
  ids: string[];
}

/** Every operation of the document, in a stable order. */
export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        // device routes (/osmand) answer in their own way: fuzzed by test/platform/fuzz/osmand.ts
        .filter(([, op]) => op['x-surface'] !== 'device')
        .map(([method, op]) => ({
          name: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          surface: path.startsWith('/api/') ? ('action' as const) : path.startsWith('/v1/') ? ('connector' as const) : ('public' as const),
          op,
        })),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
}

const garbageKeys = fc.constantFrom('', 'x', 'fwk_', 'fwk_ZZZZZZZZ_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Bearer abc', 'fwk_' + 'a'.repeat(300), '%00');

/** Who the request claims to be: mostly the company's administrator, sometimes nobody or garbage. */
function authArbitrary(ctx: FuzzContext, surface: FuzzOperation['surface']) {
  const header = (key: string) => ({ headers: { 'api-key': key } as Record<string, string>, bodyAuth: undefined as unknown });
  const variants = [
    { arbitrary: fc.constant(header(ctx.key)), weight: 12 },
    { arbitrary: fc.constant({ headers: {} as Record<string, string>, bodyAuth: undefined as unknown }), weight: 1 },
    { arbitrary: garbageKeys.map(header), weight: 1 },
  ];
  if (surface === 'action') {
    variants.push({
      arbitrary: fc
        .oneof(fc.constant(ctx.username), nastyValues)
        .map((usr) => ({ headers: {} as Record<string, string>, bodyAuth: { usr, key: ctx.key } as unknown })),
      weight: 1,
    });
  }
  return fc.oneof(...variants);
}

/** Raw bodies that are not what the schema says at all. */
const rawBodies = fc.constantFrom('', '{', '{"data": {', 'nul', '[]', 'null', '"x"', '5', '{"data": {}}garbage', '\u0000', '{"data":{}, "data": 5}');

/**
 * `encodeURIComponent`, except that a lone surrogate (which it refuses) goes out as the raw
 * UTF-8-style bytes of its code unit (`%ED%A0%80`): invalid UTF-8, as a hostile client would send.
 */
export function encodeOdd(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return Array.from(s, (ch) => {
      const c = ch.charCodeAt(0);
      if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) return `%ED%${(0xa0 | ((c >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
      return encodeURIComponent(ch);
    }).join('');
  }
}

/** A path id: a real one, a generated string, or an odd encoding that has broken routers. */
function pathIdArbitrary(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: ctx.ids.length ? fc.constantFrom(...ctx.ids) : fc.constant('none'), weight: 3 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 64, unit: 'binary' }).map(encodeOdd), weight: 2 },
    { arbitrary: nastyStrings.filter((s) => s.length > 0 && s.length < 20_000).map(encodeOdd), weight: 2 },
    {
      arbitrary: fc.constantFrom('%00', 'a%00', '%FF', '%E0%A4%A', '%', '..', '%2e%2e', '%2F', 'x'.repeat(65), 'x'.repeat(5000), 'tpl-1', '%20', '%C0%80'),
      weight: 2,
    },
  );
}

/** A query string from the operation's query parameters, then mutated (wrong types, repeats, unknown keys, raw oddities). */
function queryArbitrary(params: Parameter[], components: Components): fc.Arbitrary<string> {
  const model = Object.fromEntries(params.map((p) => [p.name, arbitraryOf(p.schema, components)]));
  const required = params.filter((p) => p.required).map((p) => p.name);
  const valid = fc.record(model, { requiredKeys: required });
  const toQuery = (q: unknown): string => {
    if (!q || typeof q !== 'object' || Array.isArray(q)) return `q=${encodeURIComponent(JSON.stringify(q) ?? '')}`;
    const sp = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) {
      for (const one of Array.isArray(v) ? v : [v]) sp.append(k, typeof one === 'string' ? one : JSON.stringify(one) ?? '');
    }
    return sp.toString();
  };
  return fc
    .tuple(
      params.length ? mutated(valid) : fc.oneof(fc.constant({}), mutated(fc.constant({}))),
      fc.oneof(
        { arbitrary: fc.constant(''), weight: 8 },
        { arbitrary: fc.constantFrom('&%', '&a[b]=1', '&limit=1&limit=2', '&=x', '&&&', '&%FF=1', '&includeArchived', '&x=%00'), weight: 2 },
      ),
    )
    .map(([q, raw]) => toQuery(q) + raw);
}

/** The JSON body schema of an operation, if it takes one. */
function bodySchemaOf(op: Operation): Schema | undefined {
  return op.requestBody?.content['application/json']?.schema;
}

/**
 * Requests for one operation: its documented request (action `data` and `ver`, connector path,
 * query and body) generated from the schemas, mostly mutated; auth mostly the company's
 * administrator key, sometimes missing or garbage; sometimes a raw body that is no JSON at all.
 */
export function requestArbitrary(o: FuzzOperation, doc: OpenApiDoc, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const components = doc.components.schemas;
  const documented = bodySchemaOf(o.op);
  // the envelope's `auth` is sent by the auth variants below, not generated (a random one only fails authentication)
  const schema =
    documented?.properties?.auth !== undefined
      ? { ...documented, properties: Object.fromEntries(Object.entries(documented.properties).filter(([k]) => k !== 'auth')) }
      : documented;
  const params = o.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc
    .tuple(...pathParams.map(() => pathIdArbitrary(ctx)))
    .map((ids) => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, ids[i]), o.path));
  const queryArb = o.surface === 'connector' ? queryArbitrary(queryParams, components) : fc.constant('');
  const bodyArb: fc.Arbitrary<unknown> = schema ? mutated(arbitraryOf(schema, components, { ids: ctx.ids })) : fc.constant(undefined);
  const raw = fc.oneof({ arbitrary: fc.constant(undefined), weight: 14 }, { arbitrary: rawBodies, weight: 1 });
  return fc.tuple(pathArb, queryArb, bodyArb, authArbitrary(ctx, o.surface), raw).map(([path, query, body, auth, rawBody]) => {
    const headers: Record<string, string> = { ...auth.headers };
    let text: string | undefined;
    if (o.method === 'GET') text = undefined; // fetch sends no body with GET
    else if (rawBody !== undefined) text = rawBody;
    else if (body !== undefined) {
      const withAuth =
        auth.bodyAuth !== undefined && body && typeof body === 'object' && !Array.isArray(body) ? { ...body, auth: auth.bodyAuth } : body;
      text = JSON.stringify(withAuth);
    }
    if (text !== undefined) headers['content-type'] = 'application/json';
    return { method: o.method, url: query ? `${path}?${query}` : path, headers, body: text };
  });
}

/**
 * The document's schemas for Ajv (JSON Schema): Ajv reads `nullable` beside a `type`, but not the
 * OpenAPI 3.0 idiom `{allOf: [{$ref}], nullable: true}`, which becomes `anyOf [.., {type: null}]`
 * (as in test/platform/openapi.e2e-spec.ts).
 */
export function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (typeof node !== 'object' || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, forAjv(v)]));
  if (out.nullable !== true || 'type' in out) return out;
  const { nullable: _nullable, description, ...rest } = out;
  return { description, anyOf: [rest, { type: 'null' }] };
}

/** The action status codes and the HTTP statuses they travel with (CONTRACTS.md "Errors"). */
const ACTION_HTTP: Record<number, number[]> = { [-1]: [400, 413, 431], [-2]: [401], [-3]: [401], [-4]: [409], [-5]: [403], [-6]: [429], 1001: [404] };

/** Checks answers against the document: surface shapes for errors, the 2xx schema for successes. */
export class AnswerChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDoc) {}

  private successValidator(o: FuzzOperation, http: number): ValidateFunction | undefined {
    const key = `${o.name} ${http}`;
    if (!this.validators.has(key)) {
      const codes = Object.keys(o.op.responses).filter((s) => s.startsWith('2'));
      // a route documents one success status; POST /v1/jobs's dedupe update (200) answers the same shape as its 201
      const code = codes.includes(String(http)) ? String(http) : codes[0];
      const schema = code ? o.op.responses[code].content?.['application/json']?.schema : undefined;
      if (!schema) return undefined;
      this.validators.set(key, this.ajv.compile(forAjv({ ...schema, components: this.doc.components }) as object));
    }
    return this.validators.get(key);
  }

  /** @returns a sentence naming what is wrong with the answer, or null when it is right. */
  problemOf(o: FuzzOperation, http: number, contentType: string | null, text: string): string | null {
    if (http >= 500) return `HTTP ${http}: ${text.slice(0, 300)}`;
    // a stream (GET /v1/stream) answers its documented media type; `send` read its first frame, `retry:`
    if (http >= 200 && http < 300 && (contentType ?? '').startsWith('text/event-stream')) {
      const types = Object.keys(o.op.responses[String(http)]?.content ?? {});
      if (!types.includes('text/event-stream')) return `content-type ${contentType} is not the documented ${types.join(', ')}`;
      return /^retry: \d+\n\n/.test(text) ? null : `the stream did not start with retry: (${JSON.stringify(text.slice(0, 80))})`;
    }
    // a route answering files (`POST /v1/reports`) answers one of its documented types, not JSON
    if (http >= 200 && http < 300 && !/^application\/json/.test(contentType ?? '')) {
      const types = Object.keys(o.op.responses[String(http)]?.content ?? {});
      if (types.some((t) => t !== 'application/json' && (contentType ?? '').startsWith(t.split(';')[0]))) return null;
    }
    if (o.surface === 'public' && http >= 200 && http < 300) {
      const types = Object.keys(o.op.responses[String(http)]?.content ?? {});
      return types.some((t) => (contentType ?? '').startsWith(t)) ? null : `content-type ${contentType} is not the documented ${types.join(', ')}`;
    }
    if (!/^application\/json/.test(contentType ?? '')) return `content-type ${contentType} (HTTP ${http}): ${text.slice(0, 200)}`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `not JSON (HTTP ${http}): ${text.slice(0, 200)}`;
    }
    const b = body as Record<string, unknown>;
    if (http >= 200 && http < 300) {
      if (o.surface === 'action' && (http !== 200 || b.status !== 0)) return `HTTP ${http} with status ${String(b.status)}`;
      const validate = this.successValidator(o, http);
      if (!validate) return `no documented success schema for HTTP ${http}`;
      if (!validate(body)) return `2xx answer does not match its schema: ${this.ajv.errorsText(validate.errors).slice(0, 500)}`;
      return null;
    }
    if (o.surface !== 'connector') {
      if (typeof b?.status !== 'number' || b.status === 0 || typeof b.error !== 'string' || Object.keys(b).length !== 2) {
        return `action error not {status, error} (HTTP ${http}): ${text.slice(0, 200)}`;
      }
      if (!(ACTION_HTTP[b.status] ?? []).includes(http)) return `status ${b.status} with HTTP ${http}`;
      return null;
    }
    const e = b?.error as Record<string, unknown> | undefined;
    if (!e || typeof e.message !== 'string' || Object.keys(b).length !== 1) return `connector error not {error: {message}} (HTTP ${http}): ${text.slice(0, 200)}`;
    if (!o.op.responses[String(http)] && http !== 431) return `HTTP ${http} is not documented for ${o.name}`;
    return null;
  }
}

/** A request for a failure report: long strings cut, so a 100,000-character value stays readable. */
export function describeRequest(r: FuzzRequest): string {
  const cut = (s: string) => (s.length > 1000 ? `${s.slice(0, 1000)}…(${s.length} chars)` : s);
  return `${r.method} ${cut(r.url)} headers=${JSON.stringify(r.headers)} body=${r.body === undefined ? '(none)' : cut(r.body)}`;
}

/** Sends one request over real HTTP; a request that gets no answer within `timeoutMs` is a hang. */
export async function send(baseUrl: string, r: FuzzRequest, timeoutMs = 15_000) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const res = await fetch(`${baseUrl}${r.url}`, { method: r.method, headers: r.headers, body: r.body, signal: abort.signal });
    const contentType = res.headers.get('content-type');
    if (res.status === 200 && contentType?.startsWith('text/event-stream')) {
      // a stream never ends: its first frame, then hang up
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('utf8');
      }
      abort.abort();
      return { http: res.status, contentType, text };
    }
    return { http: res.status, contentType, text: await res.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** A stable 31-bit seed per operation from the run's seed, so adding a route does not change the others' requests. */
export function seedFor(runSeed: number, name: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h & 0x7fffffff;
}

/** Resolves a schema reference (re-exported for the spec's own checks). */
export { resolve };
