import 'reflect-metadata';

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
