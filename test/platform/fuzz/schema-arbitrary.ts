import fc from 'fast-check';

/**
 * The subset of an OpenAPI 3.0 schema object the converter reads (what our generator emits:
 * `type`, `enum`, `nullable`, `$ref`, `allOf`/`anyOf`/`oneOf`, string, number, array (with `uniqueItems`) and object
 * keywords). A schema with none of them (only a `description`) accepts any JSON value.
 */
export interface Schema {
  $ref?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  nullable?: boolean;
  enum?: unknown[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
  readOnly?: boolean;
  /** a valid value the document shows (taken half the time: a value a random string would hardly hit, such as a URL) */
  example?: unknown;
}

/** `#/components/schemas/<Name>` → schema. */
export type Components = Record<string, Schema>;

/** What the caller knows of existing rows: ids that string properties named like ids (and map keys) sometimes take. */
export interface GenerateOptions {
  ids?: string[];
  /** set by the converter for properties named like ids (and their array items) */
  asId?: boolean;
}

/** Property names that hold an id or a list of them (`id`, `uids`, `placeUid`, `receiverUid`, `deliveryId`…). */
const ID_NAME = /(^|[a-z])(id|uid|Id|Uid)s?$/;

/** Generation bounds: arrays and strings are kept short (with their documented maxima sometimes hit). */
const MAX_ITEMS = 4;
const MAX_CHARS = 40;
const MAX_DEPTH = 8;

/** Resolves a local `$ref` (only `#/components/schemas/…` appear in our document). */
export function resolve(schema: Schema, components: Components): Schema {
  let s = schema;
  for (let hops = 0; s.$ref && hops < 20; hops++) {
    const name = s.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`unresolvable $ref ${s.$ref}`);
    s = target;
  }
  return s;
}

/** A JSON value of any type, small: for schemas that document no type. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('2030-01-15', '20300115', '2030-02-30', '1970-01-01T00:00:00Z', ''),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 3 }),
);

const days = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true });

/**
 * Rules our DTOs state only in a `description` (no JSON Schema keyword carries them): values that
 * keep them, so generated requests get past validation. Undefined when the description says none.
 */
function describedArbitrary(s: Schema): fc.Arbitrary<unknown> | undefined {
  const d = s.description ?? '';
  const orNull = /or null/.test(d) ? [fc.constant(null)] : [];
  if (/IANA time-zone/.test(d)) return fc.constantFrom('UTC', 'Europe/Ljubljana', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham');
  if (/YYYY-MM-DD/.test(d))
    return fc.oneof(
      days.map((t) => t.toISOString().slice(0, 10)),
      ...orNull,
    );
  if (/YYYYMMDD/.test(d)) {
    const special = [0, -1].filter((n) => d.includes(` ${n} `) || d.includes(`${n} (`));
    return fc.oneof(
      days.map((t) => Number(t.toISOString().slice(0, 10).replace(/-/g, ''))),
      ...(special.length ? [fc.constantFrom(...special)] : []),
    );
  }
  return undefined;
}

/** Properties a request must not send (documented as read-only): left out of valid values; the mutation layer adds them. */
const isReadOnly = (s: Schema) => s.readOnly === true || /read-only/.test(s.description ?? '');

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, MAX_CHARS);
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max);
  if (s.format === 'email') return fc.emailAddress().filter((v) => v.length >= min && v.length <= max);
  const short = fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, MAX_CHARS)), unit: 'grapheme' });
  // the documented maximum, exactly: lengths at the boundary are where storage limits hide
  const longest = fc.string({ minLength: max, maxLength: max, unit: 'grapheme-ascii' }).filter((v) => v.length === max);
  return max > MAX_CHARS ? fc.oneof({ arbitrary: short, weight: 5 }, { arbitrary: longest, weight: 1 }) : short;
}

function numberArbitrary(s: Schema): fc.Arbitrary<number> {
  const lo = s.minimum ?? -Number.MAX_SAFE_INTEGER;
  const hi = s.maximum ?? Number.MAX_SAFE_INTEGER;
  if (s.type === 'integer') {
    const min = Math.ceil(lo) + (s.exclusiveMinimum ? 1 : 0);
    const max = Math.floor(hi) - (s.exclusiveMaximum ? 1 : 0);
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  }
  return fc.oneof(
    fc.double({
      min: lo,
      max: hi,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: !!s.exclusiveMinimum,
      maxExcluded: !!s.exclusiveMaximum,
    }),
    fc.integer({ min: Math.ceil(Math.max(lo, -2147483648)), max: Math.floor(Math.min(hi, 2147483647)) }),
  );
}

function objectArbitrary(s: Schema, components: Components, opts: GenerateOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.fromEntries(Object.entries(s.properties ?? {}).filter(([, v]) => !isReadOnly(v)));
  const model = Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, arbitraryOf(v, components, { ...opts, asId: ID_NAME.test(k) }, depth + 1)]),
  );
  const known = fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
  const extra = s.additionalProperties;
  if (!extra || typeof extra !== 'object') return known;
  const keys = fc.string({ minLength: 1, maxLength: 12 });
  const more = fc.dictionary(
    (opts.ids?.length ? fc.oneof(keys, fc.constantFrom(...opts.ids)) : keys).filter((k) => !(k in props)),
    arbitraryOf(extra, components, { ...opts, asId: false }, depth + 1),
    { maxKeys: MAX_ITEMS },
  );
  return fc.tuple(known, more).map(([a, b]) => ({ ...b, ...a }));
}

/**
 * A fast-check arbitrary of values valid against an OpenAPI 3.0 schema (as far as its keywords
 * say: rules told only in a `description` are not known here). Sizes are kept small — at most
 * {@link MAX_ITEMS} items or keys, strings up to {@link MAX_CHARS} characters with the documented
 * `maxLength` sometimes hit exactly — so a run stays fast; the mutation layer makes the big ones.
 * With `opts.ids`, properties named like ids (and map keys, as `editjobs`' `jobs`) often take an
 * existing id, so requests reach past "not found" into the handlers.
 * @throws Error on a `$ref` that does not resolve
 */
export function arbitraryOf(schema: Schema, components: Components, opts: GenerateOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const generated = baseArbitrary(s, components, opts, depth);
  const base = s.example === undefined ? generated : fc.oneof(generated, fc.constant(s.example));
  return s.nullable ? fc.oneof({ arbitrary: base, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
}

function baseArbitrary(s: Schema, components: Components, opts: GenerateOptions, depth: number): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  const described = s.pattern || s.format ? undefined : describedArbitrary(s);
  if (described) return described;
  if (s.allOf) {
    // our document uses allOf only to wrap one $ref (with `nullable` beside it)
    const objects = s.allOf.map((x) => resolve(x, components));
    if (objects.length === 1) return arbitraryOf(objects[0], components, opts, depth);
    const merged: Schema = {
      type: 'object',
      properties: Object.assign({}, ...objects.map((o) => o.properties ?? {})) as Record<string, Schema>,
      required: objects.flatMap((o) => o.required ?? []),
      additionalProperties: false,
    };
    return objectArbitrary(merged, components, opts, depth);
  }
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, components, opts, depth)));
  if (depth > MAX_DEPTH) return fc.constant(null);
  switch (s.type) {
    case 'string':
      return opts.asId && opts.ids?.length ? fc.oneof(stringArbitrary(s), fc.constantFrom(...opts.ids)) : stringArbitrary(s);
    case 'number':
    case 'integer':
      return numberArbitrary(s);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = s.items ? arbitraryOf(s.items, components, opts, depth + 1) : anyJson;
      const length = { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? MAX_ITEMS, MAX_ITEMS)) };
      // `uniqueItems` (class-validator's ArrayUnique): equal as JSON = the same item
      return s.uniqueItems ? fc.uniqueArray(items, { ...length, selector: (v) => JSON.stringify(v) }) : fc.array(items, length);
    }
    case 'object':
      return objectArbitrary(s, components, opts, depth);
    case undefined:
      return s.properties ? objectArbitrary(s, components, opts, depth) : anyJson;
    default:
      return anyJson;
  }
}
