/** A JSON Schema (draft-07) or OpenAPI 3.0 schema node, loosely typed: the converter walks any shape. */
export type JsonSchemaNode = { [keyword: string]: unknown };

const SUBSCHEMA_MAPS = ['properties', 'definitions', 'patternProperties'] as const;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'] as const;
const SUBSCHEMAS = ['additionalProperties', 'not'] as const;

const isNode = (v: unknown): v is JsonSchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNull = (v: unknown) => isNode(v) && v.type === 'null' && Object.keys(v).length === 1;
/** `{not: {}}`: what ts-json-schema-generator emits for a property typed `undefined` (`jobs?: undefined`). */
const isNever = (v: unknown) => isNode(v) && isNode(v.not) && Object.keys(v.not).length === 0;

/** An OpenAPI 3.0 component name (`^[a-zA-Z0-9._-]+$`) for a definition name such as `Record<string,X>`. */
export const componentName = (name: string) => decodeURIComponent(name).replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * Converts the draft-07 JSON Schema ts-json-schema-generator writes into the OpenAPI 3.0 dialect:
 * - `$schema`/`$id` dropped; `#/definitions/X` → `${refPrefix}X` (X made a valid component name);
 * - `type: [T, "null"]` → `type: T, nullable: true`; `anyOf: [A, {type: "null"}]` → A nullable
 *   (a `$ref` A wrapped in `allOf`, as OpenAPI 3.0 ignores a `$ref`'s siblings);
 * - `const: v` → `enum: [v]`; a property typed `undefined` (`{not: {}}`) is dropped, it never appears;
 * - tuples (`items: [A, B]`) → `items: {anyOf: [A, B]}` with their length.
 * Returns a new object; the input is not changed.
 */
export function toOpenApiSchema(schema: JsonSchemaNode, refPrefix: string): JsonSchemaNode {
  const out: JsonSchemaNode = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$schema' || keyword === '$id') continue;
    if (keyword === '$ref' && typeof value === 'string')
      out.$ref = value.replace(/^#\/definitions\/(.*)$/, (_, n: string) => refPrefix + componentName(n));
    else if (keyword === 'const') out.enum = [value];
    else if ((SUBSCHEMA_MAPS as readonly string[]).includes(keyword) && isNode(value))
      out[keyword] = Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => keyword !== 'properties' || !isNever(v))
          .map(([k, v]) => [keyword === 'definitions' ? componentName(k) : k, isNode(v) ? toOpenApiSchema(v, refPrefix) : v]),
      );
    else if ((SUBSCHEMA_LISTS as readonly string[]).includes(keyword) && Array.isArray(value))
      out[keyword] = value.map((v: unknown) => (isNode(v) ? toOpenApiSchema(v, refPrefix) : v));
    else if ((SUBSCHEMAS as readonly string[]).includes(keyword) && isNode(value)) out[keyword] = toOpenApiSchema(value, refPrefix);
    else if (keyword === 'items' && Array.isArray(value)) {
      out.items = { anyOf: value.map((v: unknown) => (isNode(v) ? toOpenApiSchema(v, refPrefix) : v)) };
      out.minItems ??= value.length;
    } else if (keyword === 'items' && isNode(value)) out.items = toOpenApiSchema(value, refPrefix);
    else out[keyword] = value;
  }
  if (Array.isArray(out.required) && isNode(out.properties)) {
    const properties = out.properties;
    out.required = out.required.filter((name) => typeof name === 'string' && name in properties);
    if (!(out.required as unknown[]).length) delete out.required;
  }
  if (Array.isArray(schema.items) && schema.additionalItems === false) out.maxItems ??= schema.items.length;
  delete out.additionalItems;
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== 'null');
    if (types.length < out.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      delete out.type;
      if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
    }
  }
  for (const list of ['anyOf', 'oneOf'] as const) {
    const members = out[list];
    if (!Array.isArray(members) || !members.some(isNull)) continue;
    const rest = members.filter((m) => !isNull(m));
    delete out[list];
    if (rest.length === 1 && isNode(rest[0]) && typeof rest[0].$ref === 'string') Object.assign(out, { allOf: [rest[0]], nullable: true });
    else if (rest.length === 1 && isNode(rest[0])) Object.assign(out, rest[0], { nullable: true });
    else Object.assign(out, { [list]: rest, nullable: true });
  }
  return out;
}
