/**
 * A pure decoder of the OsmAnd HTTP protocol as the Traccar Client phone app speaks it (CONTRACTS.md
 * "Traccar Client / OsmAnd"). Facts taken from Traccar's own decoder,
 * `src/main/java/org/traccar/protocol/OsmAndProtocolDecoder.java` (github.com/traccar/traccar):
 * - a `Content-Type` starting with `application/json` is the newer client's JSON body
 *   `{device_id, location: {timestamp, coords: {latitude, longitude, accuracy, speed, heading,
 *   altitude}, is_moving, battery: {level, is_charging}, …}}`; anything else is parameters, from the
 *   query string or, when it has none, from the (form-encoded) body;
 * - the device is `id` or `deviceid` (JSON `device_id`);
 * - `timestamp`: an integer below 2^31 is Unix seconds, else ms; otherwise ISO 8601 when it holds
 *   a `T`, else `yyyy-MM-dd HH:mm:ss` (read as UTC here); absent = the receive time;
 * - `lat`/`lon`, or `location=lat,lon`; `bearing` or `heading`; `speed` in knots (JSON
 *   `coords.speed` in m/s); `altitude`, `accuracy` m; `batt` percent (JSON `battery.level` 0..1);
 *   negative JSON speed, heading, accuracy or battery level mean unknown;
 * - other parameters (hdop, charge, driverUniqueId, wifi, cell, valid, odometer, activity…) are
 *   kept by Traccar as attributes: we have no use for them and ignore them;
 * - a request without coordinates is a heartbeat (Traccar fills in the last location): here it
 *   stores no fix.
 *
 * The decoder gives a raw fix in the location record's names and units (`ts` ms, `lat`, `lng`,
 * `acc` m, `dir` degrees, `spd` m/s, `elv` m, `bat` percent) for the same per-fix rules as
 * `pushlocations` ({@link validateFix}); {@link osmandFieldName} names a field of it as the client
 * sent it, for the 400's message.
 */

/** Which of the three forms a request used. */
export type OsmAndFormat = 'query' | 'form' | 'json';

/** knots → m/s (1 kn = 1852 m / 3600 s). */
export const KNOT_MPS = 0.514444;

/** A request as the controller hands it over. */
export interface OsmAndRequest {
  /** the parsed query string (a repeated parameter as an array: the last value counts, as in Traccar) */
  query: Record<string, unknown>;
  /** the parsed body: an object for JSON and form bodies, else anything (ignored) */
  body: unknown;
  contentType: string | undefined;
  /** ms, the receive time: the fix's `ts` when the request gives none */
  now: number;
}

/** A raw fix in the location record's names and units, still to be checked by the per-fix rules. */
export interface OsmAndFix {
  ts: number;
  lat: number;
  lng: number;
  acc?: number;
  dir?: number;
  spd?: number;
  elv?: number;
  bat?: number;
}

export type OsmAndDecoded =
  | { ok: true; format: OsmAndFormat; deviceId: string; fix: OsmAndFix | null }
  | { ok: false; format: OsmAndFormat; field: string; rule: string };

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
/** ISO 8601 as JavaScript reads it reliably: a date, `T`, a time, an optional fraction and zone. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const MAX_DEVICE_ID = 64;
/** A UTF-16 surrogate without its partner: not well-formed Unicode (PostgreSQL text can't hold it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The device id's own rules, beyond "present": at most {@link MAX_DEVICE_ID} characters, no NUL
 * (PostgreSQL refuses it in text: a 500 before) and no lone surrogate — the envelope's wording for
 * the same rules (`apps/api/src/envelope/request-context.ts`).
 */
function checkDeviceId(deviceId: string, field: string): void {
  if (deviceId.length > MAX_DEVICE_ID) throw new Bad(field, `must be at most ${MAX_DEVICE_ID} characters`);
  if (deviceId.includes('\u0000')) throw new Bad(field, 'must not contain the NUL character');
  if (LONE_SURROGATE.test(deviceId)) throw new Bad(field, 'must be well-formed Unicode: it holds a lone surrogate');
}

class Bad extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

/**
 * A timestamp as Traccar reads it → ms. Integers below 2^31 are seconds, others ms; strings with a
 * `T` are ISO 8601 (no zone = UTC); else `yyyy-MM-dd HH:mm:ss` UTC.
 * @returns ms, or null when the value is none of these
 */
export function parseOsmAndTimestamp(value: string | number): number | null {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) return null;
    return value < 2 ** 31 ? value * 1000 : value;
  }
  const v = value.trim();
  if (INTEGER.test(v)) return parseOsmAndTimestamp(Number(v));
  if (v.includes('T')) {
    if (!ISO.test(v)) return null;
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`;
    const ms = Date.parse(zoned.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isFinite(ms) ? ms : null;
  }
  const m = LOCAL_DATE_TIME.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // refuse 2026-02-30 and 25:00:00 instead of rolling them over
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || back.getUTCHours() !== h || back.getUTCMinutes() !== mi) return null;
  return ms;
}

const TIMESTAMP_RULE = 'must be Unix seconds or ms, ISO 8601, or yyyy-MM-dd HH:mm:ss (UTC)';

function lastValue(v: unknown): unknown {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

function numberParam(params: Record<string, unknown>, name: string): number | undefined {
  const v = lastValue(params[name]);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !NUMBER.test(v.trim())) throw new Bad(name, 'must be a number');
  return Number(v.trim());
}

function decodeParams(params: Record<string, unknown>, format: OsmAndFormat, now: number): OsmAndDecoded {
  const rawId = lastValue(params.id) ?? lastValue(params.deviceid);
  const idName = params.id !== undefined ? 'id' : 'deviceid';
  if (typeof rawId !== 'string' || rawId.trim() === '') throw new Bad('id', 'is required: the device identifier (id or deviceid)');
  const deviceId = rawId.trim();
  checkDeviceId(deviceId, idName);

  let ts = now;
  const rawTs = lastValue(params.timestamp);
  if (rawTs !== undefined) {
    const parsed = typeof rawTs === 'string' ? parseOsmAndTimestamp(rawTs) : null;
    if (parsed === null) throw new Bad('timestamp', TIMESTAMP_RULE);
    ts = parsed;
  }

  let lat = numberParam(params, 'lat');
  let lng = numberParam(params, 'lon');
  const location = lastValue(params.location);
  if (location !== undefined) {
    const parts = typeof location === 'string' ? location.split(',').map((p) => p.trim()) : [];
    if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p))) throw new Bad('location', 'must be "lat,lon" (two numbers)');
    [lat, lng] = parts.map(Number);
  }
  if (lat === undefined && lng === undefined) return { ok: true, format, deviceId, fix: null };
  if (lat === undefined) throw new Bad('lat', 'is required with lon');
  if (lng === undefined) throw new Bad('lon', 'is required with lat');

  const fix: OsmAndFix = { ts, lat, lng };
  const knots = numberParam(params, 'speed');
  if (knots !== undefined) fix.spd = knots * KNOT_MPS;
  const dir = numberParam(params, 'bearing') ?? numberParam(params, 'heading');
  if (dir !== undefined) fix.dir = dir;
  const elv = numberParam(params, 'altitude');
  if (elv !== undefined) fix.elv = elv;
  const acc = numberParam(params, 'accuracy');
  if (acc !== undefined) fix.acc = acc;
  const bat = numberParam(params, 'batt');
  if (bat !== undefined) fix.bat = bat;
  return { ok: true, format, deviceId, fix };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonNumber(obj: Record<string, unknown>, key: string, path: string, required = false): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) throw new Bad(path, 'is required (a number)');
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Bad(path, 'must be a number');
  return v;
}

function decodeJson(body: unknown, now: number): OsmAndDecoded {
  if (!isObject(body)) throw new Bad('body', 'must be a JSON object {device_id, location}');
  const rawId = body.device_id;
  if (typeof rawId !== 'string' || rawId.trim() === '') throw new Bad('device_id', 'is required (a string)');
  const deviceId = rawId.trim();
  checkDeviceId(deviceId, 'device_id');
  const location = body.location;
  if (location === undefined || location === null) return { ok: true, format: 'json', deviceId, fix: null };
  if (!isObject(location)) throw new Bad('location', 'must be an object');

  let ts = now;
  if (location.timestamp !== undefined && location.timestamp !== null) {
    const raw = location.timestamp;
    const parsed = typeof raw === 'string' || typeof raw === 'number' ? parseOsmAndTimestamp(raw) : null;
    if (parsed === null) throw new Bad('location.timestamp', TIMESTAMP_RULE);
    ts = parsed;
  }
  const coords = location.coords;
  if (coords === undefined || coords === null) return { ok: true, format: 'json', deviceId, fix: null };
  if (!isObject(coords)) throw new Bad('location.coords', 'must be an object');
  const lat = jsonNumber(coords, 'latitude', 'location.coords.latitude', true)!;
  const lng = jsonNumber(coords, 'longitude', 'location.coords.longitude', true)!;
  const fix: OsmAndFix = { ts, lat, lng };
  // the client sends -1 for what the phone does not know
  const known = (v: number | undefined) => (v !== undefined && v >= 0 ? v : undefined);
  const spd = known(jsonNumber(coords, 'speed', 'location.coords.speed'));
  if (spd !== undefined) fix.spd = spd;
  const dir = known(jsonNumber(coords, 'heading', 'location.coords.heading'));
  if (dir !== undefined) fix.dir = dir;
  const acc = known(jsonNumber(coords, 'accuracy', 'location.coords.accuracy'));
  if (acc !== undefined) fix.acc = acc;
  const elv = jsonNumber(coords, 'altitude', 'location.coords.altitude');
  if (elv !== undefined) fix.elv = elv;
  if (location.battery !== undefined && location.battery !== null) {
    if (!isObject(location.battery)) throw new Bad('location.battery', 'must be an object');
    const level = known(jsonNumber(location.battery, 'level', 'location.battery.level'));
    if (level !== undefined) {
      if (level > 1) throw new Bad('location.battery.level', 'must be between 0 and 1');
      fix.bat = level * 100;
    }
  }
  return { ok: true, format: 'json', deviceId, fix };
}

/** Whether a `Content-Type` is the JSON body of the newer client (Traccar: starts with application/json). */
export function isOsmAndJson(contentType: string | undefined): boolean {
  return (contentType ?? '').trim().toLowerCase().startsWith('application/json');
}

/**
 * Decodes one OsmAnd request (see the module comment for the rules and their source).
 * @returns the device id and the raw fix (null for a heartbeat without coordinates), or the field
 *   and rule of the first bad value, named as the client sent it
 */
export function decodeOsmAnd(req: OsmAndRequest): OsmAndDecoded {
  const json = isOsmAndJson(req.contentType);
  const hasQuery = Object.keys(req.query).length > 0;
  const format: OsmAndFormat = json ? 'json' : hasQuery ? 'query' : 'form';
  try {
    if (json) return decodeJson(req.body, req.now);
    const params = hasQuery ? req.query : isObject(req.body) ? req.body : {};
    return decodeParams(params, format, req.now);
  } catch (err) {
    if (err instanceof Bad) return { ok: false, format, field: err.field, rule: err.rule };
    throw err;
  }
}

const PARAM_NAMES: Record<string, string> = {
  ts: 'timestamp',
  lat: 'lat',
  lng: 'lon',
  acc: 'accuracy',
  dir: 'bearing',
  spd: 'speed',
  elv: 'altitude',
  bat: 'batt',
};
const JSON_NAMES: Record<string, string> = {
  ts: 'location.timestamp',
  lat: 'location.coords.latitude',
  lng: 'location.coords.longitude',
  acc: 'location.coords.accuracy',
  dir: 'location.coords.heading',
  spd: 'location.coords.speed',
  elv: 'location.coords.altitude',
  bat: 'location.battery.level',
};

/**
 * A per-fix rule's field (`lng`) named as the client sent it (`lon`, `location.coords.longitude`);
 * the rule itself keeps our units (m/s, percent).
 */
export function osmandFieldName(field: string, format: OsmAndFormat): string {
  const names = format === 'json' ? JSON_NAMES : PARAM_NAMES;
  return names[field] ?? field;
}
