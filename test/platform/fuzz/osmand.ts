import fc from 'fast-check';
import { FuzzRequest } from './harness';
import { mutated, nastyStrings } from './mutations';
import { arbitraryOf, Components, Schema } from './schema-arbitrary';

/** What the /osmand fuzzer knows: a real device id (so requests reach the ingest statement). */
export interface OsmAndFuzzContext {
  deviceId: string;
}

interface Parameter {
  name: string;
}
interface DeviceOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** Plausible values per documented parameter (the decoder's happy paths), else anything. */
function valueOf(name: string, ctx: OsmAndFuzzContext): fc.Arbitrary<string> {
  const now = Date.now();
  const num = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map(String);
  const plausible: Record<string, fc.Arbitrary<string>> = {
    id: fc.constantFrom(ctx.deviceId, ctx.deviceId.toUpperCase(), 'no-such-device', ''),
    deviceid: fc.constantFrom(ctx.deviceId, 'no-such-device'),
    timestamp: fc.oneof(
      fc.integer({ min: Math.floor(now / 1000) - 86_400, max: Math.floor(now / 1000) }).map(String),
      fc.integer({ min: now - 86_400_000, max: now }).map(String),
      fc.integer({ min: now - 86_400_000, max: now }).map((t) => new Date(t).toISOString()),
      fc.integer({ min: now - 86_400_000, max: now }).map((t) => new Date(t).toISOString().replace('T', ' ').slice(0, 19)),
    ),
    lat: num(-95, 95),
    lon: num(-185, 185),
    location: fc.tuple(num(-90, 90), num(-180, 180)).map(([a, b]) => `${a},${b}`),
    speed: num(-1, 200),
    bearing: num(-10, 400),
    heading: num(0, 360),
    altitude: num(-500, 9000),
    accuracy: num(-1, 5000),
    batt: num(-5, 105),
  };
  return fc.oneof({ arbitrary: plausible[name] ?? fc.string(), weight: 4 }, { arbitrary: nastyStrings.filter((s) => s.length < 5000), weight: 1 });
}

/**
 * Requests for `/osmand` from its documented operation, in each form Traccar Client uses: GET with
 * a query string, POST with a query string, a form body, or the JSON body (generated from its schema,
 * mostly mutated), plus raw oddities (broken JSON, unknown parameters, odd content types).
 */
export function osmandRequestArbitrary(op: DeviceOperation, components: Components, ctx: OsmAndFuzzContext): fc.Arbitrary<FuzzRequest> {
  const names = (op.parameters ?? []).map((p) => p.name);
  const params = fc.record(Object.fromEntries(names.map((n) => [n, valueOf(n, ctx)])), { requiredKeys: [] });
  const extras = fc.dictionary(fc.constantFrom('hdop', 'charge', 'driverUniqueId', 'wifi', 'cell', 'odometer', 'activity', 'valid', 'x'), fc.string(), {
    maxKeys: 3,
  });
  const query = fc.tuple(params, extras).map(([p, e]) => new URLSearchParams({ ...e, ...(p as Record<string, string>) }).toString());
  const jsonSchema = op.requestBody!.content['application/json'].schema;
  const json = fc
    .tuple(
      mutated(arbitraryOf(jsonSchema, components)),
      fc.constantFrom(ctx.deviceId, 'no-such-device'),
      fc.boolean(),
    )
    .map(([body, device, real]) => (real && body && typeof body === 'object' && !Array.isArray(body) ? { ...body, device_id: device } : body));
  const raw = fc.constantFrom('{', 'null', '[]', '"x"', '5', 'id=%FF&lat=1', '\u0000', 'a=1&a=2&a=3');

  return fc.oneof(
    query.map((q): FuzzRequest => ({ method: 'GET', url: `/osmand?${q}`, headers: {}, body: undefined })),
    query.map((q): FuzzRequest => ({ method: 'POST', url: `/osmand?${q}`, headers: {}, body: undefined })),
    query.map((q): FuzzRequest => ({ method: 'POST', url: '/osmand', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: q })),
    json.map((b): FuzzRequest => ({ method: 'POST', url: '/osmand', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })),
    fc
      .tuple(raw, fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream'))
      .map(([body, type]): FuzzRequest => ({ method: 'POST', url: '/osmand', headers: { 'content-type': type }, body })),
  );
}

/**
 * What is wrong with an `/osmand` answer, or null: no 5xx; 200 with an empty body; errors 400 / 404
 * (JSON bodies only) / 413 / 429 as `{status, error}` JSON.
 */
export function osmandProblemOf(r: FuzzRequest, http: number, contentType: string | null, text: string): string | null {
  if (http >= 500) return `HTTP ${http}: ${text.slice(0, 300)}`;
  if (http === 200) return text === '' ? null : `200 with a body: ${text.slice(0, 200)}`;
  if (![400, 404, 413, 429].includes(http)) return `HTTP ${http} is not an /osmand answer`;
  if (http === 404 && !/json/.test(r.headers['content-type'] ?? '')) return '404 for a request without a JSON body (unknown devices are 400 there)';
  if (!/^application\/json/.test(contentType ?? '')) return `content-type ${contentType} (HTTP ${http})`;
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    if (typeof b.status !== 'number' || typeof b.error !== 'string' || Object.keys(b).length !== 2) return `error not {status, error}: ${text.slice(0, 200)}`;
  } catch {
    return `not JSON (HTTP ${http}): ${text.slice(0, 200)}`;
  }
  return null;
}
