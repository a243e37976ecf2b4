/**
 * Decorators and the interface a domain's DTOs use beside class-validator's, read by the api (its
 * validation pipe and its OpenAPI generator): pure metadata and class-transformer transforms, no HTTP,
 * so the DTOs can live in their libs' `dto/` folders.
 */
import 'reflect-metadata';
import { Transform } from 'class-transformer';

/**
 * A DTO with a step after its rules pass: it turns wire fields it only checked for shape into typed
 * values (createjobs' `jobs` → `JobWrite[]`), so the service takes the typed write and never
 * re-parses. `prefix` is the path its errors name (`data`); it throws DomainError.
 */
export interface CompletesValidation {
  completeValidation(prefix: string): void;
}

/** Metadata key of {@link Verbatim}: the property names, on the DTO's prototype. */
export const VERBATIM = 'fieldwork:verbatim';

/**
 * The property reaches the DTO as sent instead of deep-copied by class-transformer: for a list the
 * DTO's `completeValidation` parses entry by entry itself (createjobs' 1,000 jobs, whose copy cost
 * about as much as validating them). Its own rules (`IsArray`…) still apply.
 */
export const Verbatim = (): PropertyDecorator => (target, property) =>
  Reflect.defineMetadata(VERBATIM, [...((Reflect.getMetadata(VERBATIM, target) as Array<string | symbol>) ?? []), property], target);

/** Metadata key of {@link EntriesOf}. */
export const DOC_ENTRIES = 'fieldwork:doc-entries';

/** What {@link EntriesOf} records on a property. */
export interface DocEntries {
  type: () => abstract new (...args: never[]) => unknown;
  /** keys the handler accepts beyond the DTO's (by pattern), in words; absent = none */
  otherKeys?: string;
}

/**
 * Documentation only: the entries of this `unknown[]` (or `Record<string, unknown>`) property are
 * validated by the handler against `type`'s rules (createjobs' `jobs`, checked one by one by
 * `parseJobWrite`), so the OpenAPI schema shows `type`'s schema for each entry. Validation is
 * unchanged.
 */
export function EntriesOf(type: DocEntries['type'], otherKeys?: string): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(DOC_ENTRIES, { type, otherKeys } satisfies DocEntries, target, property);
}

/** Strict query integer: only a string of digits converts; anything else stays and fails IsInt. */
export const QueryInt = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value));

/** Strict query boolean: only `true|false|1|0` convert; anything else stays and fails IsBoolean. */
export const QueryBool = () =>
  Transform(({ value }) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value));
