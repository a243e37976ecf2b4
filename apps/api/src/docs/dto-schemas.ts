import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, IS_IN, ValidationTypes } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas30';
import { DOC_ENTRIES, DocEntries } from '@app/core';

/** Where the document keeps named schemas. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

type Class = abstract new (...args: never[]) => unknown;
type Meta = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
type Converters = NonNullable<Parameters<typeof targetConstructorToSchema>[1]>['additionalConverters'];

const PRIMITIVES = new Map<unknown, SchemaObject>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
]);

/** A property type that is a DTO class of ours (not a primitive, `Object`, `Array`, `Date`…). */
const isDtoClass = (t: unknown): t is Class =>
  typeof t === 'function' && !PRIMITIVES.has(t) && ![Object, Array, Date, Map, Set, Function].includes(t as never);

const isRef = (s: SchemaObject | ReferenceObject): s is ReferenceObject => '$ref' in s;

/**
 * JSON schemas (OpenAPI 3.0 dialect) of DTO classes, generated from their class-validator rules by
 * class-validator-jsonschema, then corrected where our decorators say more than it reads:
 * - `required` and `nullable` come from probing each `ValidateIf` condition (`Optional()` skips
 *   `undefined`, `NullableOptional()` also `null`, `EmptyOr()` `""`) rather than from "has a
 *   ValidateIf", so a field is required exactly when the validator would refuse its absence;
 * - a string that may also be `""` (a rule skipped for `""`) becomes `anyOf [rule, ""]`;
 * - every DTO refuses unknown keys (the global pipe's `forbidNonWhitelisted`): `additionalProperties: false`;
 * - custom rules (`Rule(...)`) have no schema form: their message becomes the description, as do
 *   the custom messages of the other rules;
 * - nested DTOs (`@ValidateNested` + `@Type`) become named schemas, collected in {@link components}.
 */
export class DtoSchemas {
  /** Named schemas referenced so far, by schema name. */
  readonly components: Record<string, SchemaObject> = {};
  private readonly names = new Map<Class, string>();
  /** the same classes as entries open to extra keys (`@EntriesOf`): a schema of their own */
  private readonly openNames = new Map<Class, string>();

  private readonly converters = {
    // any custom rule (`Rule`, `IsIanaZone`…): the property's primitive type, if it has one
    [ValidationTypes.CUSTOM_VALIDATION]: (meta: Meta) => ({ ...PRIMITIVES.get(designType(meta)) }),
    [ValidationTypes.NESTED_VALIDATION]: (meta: Meta) => {
      const declared = defaultMetadataStorage.findTypeMetadata(meta.target as Class, meta.propertyName)?.typeFunction() ?? designType(meta);
      return isDtoClass(declared) ? this.ref(declared) : {};
    },
    // `IsDefined` (a required query parameter's "is required" message): requiredness comes from the
    // probe below; the library's `{not: {type: 'null'}}` is not OpenAPI 3.0
    [ValidationTypes.IS_DEFINED]: () => ({}),
    // mixed-type lists (`[0, 1, true, false]`) get an enum without a type
    [IS_IN]: (meta: Meta) => {
      const values = meta.constraints[0] as unknown[];
      const types = [...new Set(values.map((v) => typeof v))];
      const type =
        types.length === 1 && ['string', 'number', 'boolean'].includes(types[0])
          ? (types[0] as 'string' | 'number' | 'boolean')
          : undefined;
      return type ? { type, enum: values } : { enum: values };
    },
  } as unknown as Converters;

  /**
   * A `$ref` to the class' schema, generating it (and the DTOs it nests) on first use.
   * @param otherKeys keys accepted beyond the class' own, in words (the schema then allows them)
   */
  ref(cls: Class, otherKeys?: string): ReferenceObject {
    const names = otherKeys === undefined ? this.names : this.openNames;
    let name = names.get(cls);
    if (!name) {
      name = this.uniqueName(cls.name);
      names.set(cls, name);
      this.components[name] = {}; // reserved before converting: a DTO may nest itself
      const schema = this.schemaOf(cls);
      if (otherKeys !== undefined) schema.additionalProperties = { description: otherKeys };
      this.components[name] = schema;
    }
    return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
  }

  /** The class' object schema itself (for a query string, whose properties become parameters). */
  schemaOf(cls: Class): SchemaObject {
    const generated = targetConstructorToSchema(cls as never, {
      refPointerPrefix: SCHEMA_REF_PREFIX,
      classTransformerMetadataStorage: defaultMetadataStorage,
      additionalConverters: this.converters,
    }) as SchemaObject;
    const metas = getMetadataStorage().getTargetValidationMetadatas(cls as never, '', true, false);
    const byProperty = new Map<string, Meta[]>();
    for (const m of metas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);

    const properties: Record<string, SchemaObject | ReferenceObject> = {};
    const required: string[] = [];
    for (const [name, propertyMetas] of byProperty) {
      const rules = probeConditions(name, propertyMetas);
      const generatedProperty = (generated.properties?.[name] ?? {}) as SchemaObject | ReferenceObject;
      properties[name] = this.withEntries(cls, name, refine(generatedProperty, rules, customMessages(propertyMetas)));
      if (rules.required) required.push(name);
    }
    const schema: SchemaObject = { type: 'object', properties, additionalProperties: false };
    if (required.length) schema.required = required;
    return schema;
  }

  /** An `@EntriesOf` property: its items (array) or values (object) get the entry DTO's schema. */
  private withEntries(cls: Class, property: string, schema: SchemaObject | ReferenceObject): SchemaObject | ReferenceObject {
    const entries = Reflect.getMetadata(DOC_ENTRIES, cls.prototype as object, property) as DocEntries | undefined;
    if (!entries || isRef(schema)) return schema;
    const entry = this.ref(entries.type(), entries.otherKeys);
    if (schema.type === 'array') return { ...schema, items: entry };
    if (schema.type === 'object') return { ...schema, additionalProperties: entry };
    return schema;
  }

  private uniqueName(base: string): string {
    let name = base || 'Anonymous';
    for (let i = 2; this.components[name]; i++) name = `${base}_${i}`;
    return name;
  }
}

function designType(meta: { target: unknown; propertyName: string }): unknown {
  const target = meta.target as { prototype?: object };
  return target.prototype ? Reflect.getMetadata('design:type', target.prototype, meta.propertyName) : undefined;
}

/** What a property's `ValidateIf` conditions let through without checking any rule. */
export interface ConditionProbe {
  /** absence is refused (no condition skips `undefined`, and some rule applies) */
  required: boolean;
  /** `null` skips every rule */
  nullable: boolean;
  /** `""` skips every rule */
  emptyString: boolean;
}

/**
 * Runs each `ValidateIf` condition of a property with `undefined`, `null` and `""` (class-validator
 * skips the property's rules when any condition is false). `@Allow()` alone accepts anything,
 * absence included.
 */
export function probeConditions(property: string, metas: Array<{ type: string; constraints?: unknown[] }>): ConditionProbe {
  const conditions = metas
    .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
    .map((m) => m.constraints?.[0] as (object: object, value: unknown) => boolean);
  const skips = (value: unknown) => conditions.some((c) => !c({ [property]: value }, value));
  const hasRule = metas.some((m) => m.type !== ValidationTypes.CONDITIONAL_VALIDATION && m.type !== ValidationTypes.WHITELIST);
  return { required: hasRule && !skips(undefined), nullable: skips(null), emptyString: skips('') };
}

/** Custom (string) messages of a property's rules: they name the rule in words. */
function customMessages(metas: Meta[]): string[] {
  const out = new Set<string>();
  for (const m of metas) {
    if ([ValidationTypes.CONDITIONAL_VALIDATION, ValidationTypes.WHITELIST, ValidationTypes.NESTED_VALIDATION].includes(m.type)) continue;
    // class-validator's own templates (`$property must…`) describe nothing the schema doesn't
    if (typeof m.message === 'string' && m.message.trim() && !/\$(property|value|target|constraint\d)/.test(m.message))
      out.add(m.message.trim());
  }
  return [...out];
}

/** Applies a probe and the messages to a generated property schema (see {@link DtoSchemas}). */
function refine(generated: SchemaObject | ReferenceObject, probe: ConditionProbe, messages: string[]): SchemaObject | ReferenceObject {
  let schema: SchemaObject | ReferenceObject;
  if (isRef(generated)) {
    // OpenAPI 3.0 ignores siblings of $ref; nullable needs a wrapper
    schema = probe.nullable ? { allOf: [{ $ref: generated.$ref }], nullable: true } : { $ref: generated.$ref };
  } else {
    schema = { ...generated };
    if (probe.nullable && schema.type) schema.nullable = true;
    const constrained = schema.type === 'string' && (schema.pattern || schema.format || (schema.minLength ?? 0) > 0 || schema.enum);
    if (probe.emptyString && constrained) schema = { anyOf: [schema, { type: 'string', enum: [''] }] };
  }
  if (messages.length && !isRef(schema)) schema.description = messages.join('; ');
  return schema;
}
