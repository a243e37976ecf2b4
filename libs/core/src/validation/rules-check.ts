import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

type Condition = (object: object, value: unknown) => boolean;

/** `ValidateIf` conditions known to answer false for `undefined`, whatever the object. */
const unsentSkippers = new WeakSet<Condition>();

/**
 * Marks `condition` (a `ValidateIf` condition) as answering false whenever the value is `undefined`,
 * whatever the object: {@link passesRules} then skips a property it guards without calling anything
 * when the property is not sent. @returns `condition`.
 */
export function skipsUnsent<C extends Condition>(condition: C): C {
  unsentSkippers.add(condition);
  return condition;
}
interface Validator {
  validate(value: unknown, args: ValidationArguments): unknown;
}
/**
 * One constraint of a property: its validators and the arguments they are called with — one object
 * per constraint, made once, its `object` and `value` set before each (synchronous) call.
 */
interface Constraint {
  each: boolean;
  validators: Validator[];
  args: ValidationArguments;
}
interface PropertyRules {
  property: string;
  /** one of its conditions is a {@link skipsUnsent} one: no rule applies to `undefined` */
  optional: boolean;
  conditions: Condition[];
  customs: Constraint[];
  nested: boolean;
}
/** A class' rules, one entry per property, or null when they use something {@link passesRules} does not run. */
interface Compiled {
  properties: PropertyRules[];
  known: Set<string>;
}

const compiled = new Map<abstract new (...args: never[]) => unknown, Compiled | null>();

function compile(cls: abstract new (...args: never[]) => unknown): Compiled | null {
  const storage = getMetadataStorage();
  // the same selection class-validator's executor makes without groups (always: false, strictGroups: false)
  const metas = storage.getTargetValidationMetadatas(cls as never, '', false, false, undefined);
  if (!metas.length) return null; // forbidUnknownValues: class-validator has its own answer
  const properties: PropertyRules[] = [];
  for (const [property, list] of Object.entries(storage.groupByPropertyName(metas))) {
    const r: PropertyRules = { property, optional: false, conditions: [], customs: [], nested: false };
    for (const m of list) {
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        r.conditions.push(m.constraints[0] as Condition);
        if (unsentSkippers.has(m.constraints[0] as Condition)) r.optional = true;
      } else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
        const validators = storage.getTargetValidatorConstraints(m.constraintCls);
        if (validators.some((v) => v.async)) return null;
        r.customs.push({
          each: !!m.each,
          validators: validators.map((v) => v.instance as Validator),
          args: { targetName: cls.name, property, object: {}, value: undefined, constraints: m.constraints },
        });
      } else if (m.type === ValidationTypes.NESTED_VALIDATION) r.nested = true;
      else if (m.type !== ValidationTypes.WHITELIST) return null; // IS_DEFINED, promises: not run here
    }
    properties.push(r);
  }
  return { properties, known: new Set(properties.map((p) => p.property)) };
}

/**
 * Whether every validator of `c` accepts `item` (a promise, from a validator not declared async, is a
 * no). `value` is the property's value as class-validator passes it in the arguments: `item` itself,
 * or the array `item` is an element of (`each`).
 */
function accepts(c: Constraint, object: object, value: unknown, item: unknown): boolean {
  c.args.object = object;
  c.args.value = value;
  for (let k = 0; k < c.validators.length; k++) {
    const ok = c.validators[k].validate(item, c.args);
    if (!ok || typeof (ok as { then?: unknown }).then === 'function') return false;
  }
  return true;
}

/** Whether `value` is an object {@link passesRules} accepts as a nested DTO. */
function passesNested(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Set || value instanceof Map) &&
    passesRules(value)
  );
}

/**
 * A fast yes/no answer to "would class-validator find no error in this DTO instance?" (with
 * `whitelist` + `forbidNonWhitelisted`, no groups), for validating many objects of one class — the
 * 1,000 jobs of a createjobs call. class-validator looks up and groups a class' metadata again for
 * every object it validates (about a third of its time per job); this reads it once per class and
 * runs the very same rule functions (`ValidateIf` conditions, every custom/built-in constraint,
 * `each`, nested DTOs, unknown keys), with no allocation per object and rule. It never explains a
 * failure: on `false`, call `validateSync` for the errors (it also answers `false` for whatever it
 * does not run itself: async rules, `IsDefined`, classes without rules), so messages always come
 * from class-validator.
 */
export function passesRules(object: object): boolean {
  const cls = object.constructor as abstract new (...args: never[]) => unknown;
  let rules = compiled.get(cls);
  if (rules === undefined) compiled.set(cls, (rules = compile(cls)));
  if (!rules) return false;
  for (const key in object) if (Object.hasOwn(object, key) && !rules.known.has(key)) return false;
  const record = object as Record<string, unknown>;
  const properties = rules.properties;
  for (let p = 0; p < properties.length; p++) {
    const r = properties[p];
    const value = record[r.property];
    if (value === undefined && r.optional) continue;
    let applies = true;
    for (let k = 0; k < r.conditions.length && applies; k++) applies = !!r.conditions[k](object, value);
    if (!applies) continue;
    for (let k = 0; k < r.customs.length; k++) {
      const c = r.customs[k];
      if (!c.each || !Array.isArray(value)) {
        if (c.each && (value instanceof Set || value instanceof Map)) return false;
        if (!accepts(c, object, value, value)) return false;
      } else for (let e = 0; e < value.length; e++) if (!accepts(c, object, value, value[e])) return false;
    }
    if (r.nested && value !== undefined) {
      if (!Array.isArray(value)) {
        if (!passesNested(value)) return false;
      } else for (let e = 0; e < value.length; e++) if (!passesNested(value[e])) return false;
    }
  }
  return true;
}

type Storage = ReturnType<typeof getMetadataStorage>;
type MetadataLookup = Storage['getTargetValidationMetadatas'];
type Target = Parameters<MetadataLookup>[0];
type Metadata = ReturnType<MetadataLookup>[number];

/** Whether {@link memoizeValidationMetadata} has wrapped class-validator's storage already. */
let memoized = false;

/**
 * Makes class-validator's `getTargetValidationMetadatas` answer from a cache. Unpatched, every
 * `validate()` of every object (and Nest's pipe, once more per object that holds an object) tests
 * the class against every registered DTO class (`prototype instanceof`) to collect inherited rules
 * (class-validator issue #2686): in the api, measured at ~55 µs a call under load, the largest part
 * of a small request's validation. A class' own and inherited rules are all registered when its
 * module loads, before anything validates it; the cache is still emptied whenever a rule or a
 * constraint is registered, so a class defined later (a test's) is never answered stale. The answer
 * for a class is the same array every time, frozen: no caller may change it. Idempotent.
 */
export function memoizeValidationMetadata(): void {
  if (memoized) return;
  memoized = true;
  const storage = getMetadataStorage();
  const lookup: MetadataLookup = storage.getTargetValidationMetadatas.bind(storage);
  let cache = new WeakMap<Target, Map<string, Metadata[]>>();
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    cache = new WeakMap();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    cache = new WeakMap();
    addConstraint(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // a schema name instead of a class (class-validator's string schemas) is left to the original
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byKey = cache.get(target);
    if (!byKey) cache.set(target, (byKey = new Map()));
    let metas = byKey.get(key);
    if (!metas) byKey.set(key, (metas = Object.freeze(lookup(target, schema, always, strictGroups, groups)) as Metadata[]));
    return metas;
  };
}
