import { invalid } from '@app/core';
import { JobWrite } from './job-input';

/**
 * createjobs' uidSecondary upsert, first half (CONTRACTS.md, "Writes"): which inputs may merge into
 * an existing job. Templates never match (they have no key to merge on), nor does an input without
 * a `uidSecondary` (or with `""`/`null`, which clears it).
 * @returns uidSecondary → index of the input carrying it.
 * @throws DomainError invalid naming both indexes when two inputs carry one uidSecondary
 *   (`data.jobs[2].uidSecondary: same uidSecondary as data.jobs[0]`).
 */
export function uidSecondaryIndex(writes: readonly JobWrite[], isTemplate: boolean): Map<string, number> {
  const index = new Map<string, number>();
  if (isTemplate) return index;
  writes.forEach((write, i) => {
    const u = write.fields.uidSecondary;
    if (!u) return;
    const seen = index.get(u);
    if (seen !== undefined) throw invalid(`${write.path}.uidSecondary`, `same uidSecondary as ${writes[seen].path}`);
    index.set(u, i);
  });
  return index;
}

/**
 * Second half: pairs the existing jobs found for the keys with the inputs that carry them.
 * @param existing jobs holding some of the keys (non-template jobs of the company, locked)
 * @returns input index → the job that input merges into; inputs not in the map are created.
 */
export function mergeTargets<J extends { uidSecondary: string | null }>(
  index: ReadonlyMap<string, number>,
  existing: readonly J[],
): Map<number, J> {
  const out = new Map<number, J>();
  for (const job of existing) {
    const i = job.uidSecondary === null ? undefined : index.get(job.uidSecondary);
    if (i !== undefined) out.set(i, job);
  }
  return out;
}
