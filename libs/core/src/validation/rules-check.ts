import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

type Condition = (object: object, value: unknown) => boolean;
interface Validator {
  validate(value: unknown, args: ValidationArguments): unknown;
}
interface PropertyRules {
  conditions: Condition[];
  customs: Array<{ each: boolean; constraints: unknown[]; validators: Validator[] }>;
  nested: boolean;
}
/** A class' rules by property, or null when they use something {@link passesRules} does not run. */
type Compiled = Map<string, PropertyRules> | null;

const compiled = new Map<abstract new (...args: never[]) => unknown, Compiled>();

function compile(cls: abstract new (...args: never[]) => unknown): Compiled {
  const storage = getMetadataStorage();
  // the same selection class-validator's executor makes without groups (always: false, strictGroups: false)
  const metas = storage.getTargetValidationMetadatas(cls as never, '', false, false, undefined);
  if (!metas.length) return null; // forbidUnknownValues: class-validator has its own answer
  const rules = new Map<string, PropertyRules>();
  for (const [property, list] of Object.entries(storage.groupByPropertyName(metas))) {
    const r: PropertyRules = { conditions: [], customs: [], nested: false };
    for (const m of list) {
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) r.conditions.push(m.constraints[0] as Condition);
      else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
        const validators = storage.getTargetValidatorConstraints(m.constraintCls);
        if (validators.some((v) => v.async)) return null;
        r.customs.push({ each: !!m.each, constraints: m.constraints, validators: validators.map((v) => v.instance as Validator) });
      } else if (m.type === ValidationTypes.NESTED_VALIDATION) r.nested = true;
      else if (m.type !== ValidationTypes.WHITELIST) return null; // IS_DEFINED, promises: not run here
    }
    rules.set(property, r);
  }
  return rules;
}

/**
 * A fast yes/no answer to "would class-validator find no error in this DTO instance?" (with
 * `whitelist` + `forbidNonWhitelisted`, no groups), for validating many objects of one class — the
 * 1,000 jobs of a createjobs call. class-validator looks up and groups a class' metadata again for
 * every object it validates (about a third of its time per job); this reads it once per class and
 * runs the very same rule functions (`ValidateIf` conditions, every custom/built-in constraint,
 * `each`, nested DTOs, unknown keys). It never explains a failure: on `false`, call
 * `validateSync` for the errors (it also answers `false` for whatever it does not run itself:
 * async rules, `IsDefined`, classes without rules), so messages always come from class-validator.
 */
export function passesRules(object: object): boolean {
  const cls = object.constructor as abstract new (...args: never[]) => unknown;
  let rules = compiled.get(cls);
  if (rules === undefined) compiled.set(cls, (rules = compile(cls)));
  if (!rules) return false;
  for (const key of Object.keys(object)) if (!rules.has(key)) return false;
  const record = object as Record<string, unknown>;
  for (const [property, r] of rules) {
    const value = record[property];
    if (!r.conditions.every((c) => c(object, value))) continue;
    for (const c of r.customs) {
      const args: ValidationArguments = { targetName: cls.name, property, object, value, constraints: c.constraints };
      if (c.each && (value instanceof Set || value instanceof Map)) return false;
      const values = c.each && Array.isArray(value) ? value : [value];
      for (const v of values) {
        for (const validator of c.validators) {
          const ok = validator.validate(v, args);
          if (!ok || typeof (ok as { then?: unknown }).then === 'function') return false;
        }
      }
    }
    if (r.nested && value !== undefined) {
      if (!Array.isArray(value)) {
        if (typeof value !== 'object' || value === null || value instanceof Set || value instanceof Map || !passesRules(value))
          return false;
      } else if (!value.every((v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && passesRules(v))) return false;
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
