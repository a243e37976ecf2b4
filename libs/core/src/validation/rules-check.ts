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
