import { invalid } from '../errors/domain-error';

/** One id a call names, with the field an error about it names (`data.id`, `data.ids[2]`). */
export interface NamedTarget {
  id: string;
  field: string;
}

/**
 * The ids a call names through exactly one of a single-id field and a list field — `id | ids`
 * (deletezone, deletealert), `uid | uids` (editplace, deleteplace) — each with the field that names it.
 * @param one the single field's value; `many` the list field's
 * @param names the two wire fields, e.g. `['id', 'ids']`
 * @param noun what the ids are, singular ("zone"), for "must name at least one zone"
 * @throws DomainError invalid naming the list field when both are sent or the list is empty, the single
 *   field when neither is
 */
export function namedTargets(
  prefix: string,
  one: string | undefined,
  many: readonly string[] | undefined,
  names: readonly [one: string, many: string],
  noun: string,
): NamedTarget[] {
  const [oneName, manyName] = names;
  if (one !== undefined && many !== undefined) throw invalid(`${prefix}.${manyName}`, `send ${oneName} or ${manyName}, not both`);
  if (one !== undefined) return [{ id: one, field: `${prefix}.${oneName}` }];
  if (many === undefined) throw invalid(`${prefix}.${oneName}`, `is required (or ${manyName})`);
  if (!many.length) throw invalid(`${prefix}.${manyName}`, `must name at least one ${noun}`);
  return many.map((id, i) => ({ id, field: `${prefix}.${manyName}[${i}]` }));
}
