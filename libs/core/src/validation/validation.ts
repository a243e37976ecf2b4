import { IsString, Matches, registerDecorator, ValidateIf, ValidationArguments, ValidationError, ValidationOptions } from 'class-validator';
import type { FieldIssue } from '../errors/domain-error';
import { isIanaZone } from '../time';
import { skipsUnsent } from './rules-check';

/** The most characters (Unicode code points, as PostgreSQL's `varchar(64)` counts) a phone field holds. */
export const PHONE_MAX = 64;

/** The most characters an e-mail field holds (its `varchar(254)` column). */
export const EMAIL_MAX = 254;

/** A control character (Unicode category Cc: U+0000–U+001F, U+007F–U+009F: tabs, line breaks, escapes…). */
const CONTROL = /\p{Cc}/u;

/**
 * The phone rule (docs/domain-rules.md "Field rules"): any text of at most {@link PHONE_MAX}
 * characters without control characters — `"+1 (555) 123-4567 x89"`, `"0800 FLOWERS"`. Phones are
 * shown and dialled by people, never parsed, so a CRM's notation is kept as sent.
 */
export function isPhoneText(value: string): boolean {
  return [...value].length <= PHONE_MAX && !CONTROL.test(value);
}

/**
 * The e-mail rule (docs/domain-rules.md "Field rules"): a plain address (`ema@x.test`) or
 * `Name <address>` (`Ema <ema@x.test>`), at most {@link EMAIL_MAX} characters; refused only when the
 * address (inside the angle brackets, if any) has no `@` between non-empty parts (`no-at`, `@x`, `x@`).
 */
export function isEmailText(value: string): boolean {
  if ([...value].length > EMAIL_MAX) return false;
  const named = /<([^<>]*)>\s*$/.exec(value);
  const address = (named ? named[1] : value).trim();
  return hasAtBetweenParts(address);
}

/** `address` has an `@` with non-blank text on both sides of it. */
function hasAtBetweenParts(address: string): boolean {
  for (let i = address.indexOf('@'); i !== -1; i = address.indexOf('@', i + 1)) {
    if (address.slice(0, i).trim() && address.slice(i + 1).trim()) return true;
  }
  return false;
}

/** A hex color `#RRGGBB`. */
export const COLOR = /^#[0-9A-Fa-f]{6}$/;

const isSent = skipsUnsent((_object: object, value: unknown) => value !== undefined);
const isSentNotNull = skipsUnsent((_object: object, value: unknown) => value !== undefined && value !== null);

/**
 * The field may be absent (`undefined`); unlike class-validator's `IsOptional`, `null` is still
 * validated (and refused by the type rule) so a `null` can never slip through as "not sent".
 */
export function Optional(): PropertyDecorator {
  return ValidateIf(isSent);
}

/** The field may be absent or `null` (which clears it): both skip the rules. */
export function NullableOptional(): PropertyDecorator {
  return ValidateIf(isSentNotNull);
}

/** The field may be `""` (which clears it): it skips the rules. */
export function EmptyOr(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== '');
}

/** The decorators of one field, applied as if written top to bottom above it (so the last applies first). */
function fieldRules(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => [...decorators].reverse().forEach((decorate) => decorate(target, key));
}

/** The message of a phone field that breaks {@link isPhoneText}. */
export const PHONE_RULE = `must be a phone: text of at most ${PHONE_MAX} characters without control characters, or ""`;

/** The message of an e-mail field that breaks {@link isEmailText}. */
export const EMAIL_RULE = `must be an e-mail address (name@domain or Name <name@domain>) of at most ${EMAIL_MAX} characters, or ""`;

/**
 * A phone field ({@link isPhoneText}), or `""` (none); one message per field: a non-string is a type
 * error only. Combine with {@link Optional} for "may be absent".
 */
export const PhoneOrEmpty = () =>
  fieldRules(IsString(), EmptyOr(), Rule((v) => typeof v !== 'string' || isPhoneText(v), PHONE_RULE) as PropertyDecorator);

/** An e-mail field ({@link isEmailText}), or `""` (none); one message per field, as {@link PhoneOrEmpty}. */
export const EmailOrEmpty = () =>
  fieldRules(IsString(), EmptyOr(), Rule((v) => typeof v !== 'string' || isEmailText(v), EMAIL_RULE) as PropertyDecorator);

/** A hex color `#RRGGBB` ({@link COLOR}), or `""` (none). */
export const ColorOrEmpty = () => fieldRules(IsString(), EmptyOr(), Matches(COLOR, { message: 'must be a hex color #RRGGBB, or ""' }));

/** A custom rule from a predicate; `rule` is the message after the field name. */
export function Rule(test: (value: unknown, args: ValidationArguments) => boolean, rule: string, options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'rule',
      target: object.constructor,
      propertyName,
      options: { message: rule, ...options },
      validator: { validate: test },
    });
}

/** An IANA time-zone name (`Europe/Ljubljana`, `UTC`). */
export const IsIanaZone = () => Rule((v) => isIanaZone(v), 'must be an IANA time-zone name such as Europe/Ljubljana');

/**
 * Below this, a positive time where ms since the epoch are expected is taken for seconds (10^11 ms is
 * 1973-03-03; 10^11 s is the year 5138), so it is refused rather than read as a moment of 1970.
 */
export const SECONDS_LOOK_BELOW = 1e11;

/**
 * A time in ms since the epoch that does not look like seconds: `0` (the beginning: "everything") or
 * at least {@link SECONDS_LOOK_BELOW}; otherwise "must be ms since the epoch; N looks like seconds"
 * (CONTRACTS.md "Ids"). Only judges numbers: combine with the field's `IsInt`/`Min`/`Max`.
 */
export const MsNotSeconds = () =>
  Rule((v) => typeof v !== 'number' || v <= 0 || v >= SECONDS_LOOK_BELOW, '', {
    message: (a: ValidationArguments) => `must be ms since the epoch; ${String(a.value)} looks like seconds`,
  });

/**
 * class-validator's constraints that say what *type* a value must have (CONTRACTS.md "Field rules":
 * a wrong type is named as a type error), most basic first: when one of them failed, the field's
 * range or format rules failed only because of it, so it is the one reported — and a list's own
 * type (`must be an array`) before its entries' (`each value … must be an integer number`).
 */
const TYPE_RULES = [
  'whitelistValidation',
  'isDefined',
  'isArray',
  'isObject',
  'nestedValidation',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
];

/**
 * The one rule of a field that failed: its most basic failed type rule ({@link TYPE_RULES}), else
 * the first failing rule as written top to bottom (class-validator lists a field's constraints bottom
 * to top, the order decorators apply in).
 */
function firstFailingRule(constraints: Record<string, string>): [string, string] | undefined {
  const entries = Object.entries(constraints);
  for (const type of TYPE_RULES) {
    const found = entries.find(([name]) => name === type);
    if (found) return found;
  }
  return entries[entries.length - 1];
}

/**
 * Turns class-validator errors into `{field: "data.teams[1]", rule: "must be an integer"}` issues,
 * **one per field**: its first failing rule, a type rule first (`must be a string` rather than
 * `must be shorter than…` for a number), naming the full path of each field (duplicates dropped).
 * Unknown fields read `{field: "data.foo", rule: "unknown field"}`.
 */
export function validationIssues(errors: ValidationError[], prefix = 'data'): FieldIssue[] {
  const out: FieldIssue[] = [];
  const seen = new Set<string>();
  const walk = (errs: ValidationError[], path: string) => {
    for (const e of errs) {
      const key = /^\d+$/.test(e.property) ? `${path}[${e.property}]` : path ? `${path}.${e.property}` : e.property;
      const failed = firstFailingRule(e.constraints ?? {});
      if (failed && !seen.has(key)) {
        const [name, message] = failed;
        out.push({ field: key, rule: name === 'whitelistValidation' ? 'unknown field' : stripProperty(message, e.property) });
        seen.add(key);
      }
      if (e.children?.length) walk(e.children, key);
    }
  };
  walk(errors, prefix);
  return out;
}

/** {@link validationIssues} as `"data.teams[1]: must be an integer"` lines. */
export function formatValidationErrors(errors: ValidationError[], prefix = 'data'): string[] {
  return validationIssues(errors, prefix).map((i) => `${i.field}: ${i.rule}`);
}

/** class-validator's default messages start with the property name; we print the full path instead. */
function stripProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
