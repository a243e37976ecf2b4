import { ActionRoles, ANY_ROLE, Role, STAFF } from '@app/core';

/**
 * Who may do what with jobs (CONTRACTS.md, "Roles"): this domain's slice of the action → roles
 * table, and the worker's edit rule that `JobsService` applies to each job of an editjobs call.
 */
export const JOB_ACTION_ROLES = {
  getjobs: ANY_ROLE,
  createjobs: STAFF,
  editjobs: ANY_ROLE,
  deletejobs: STAFF,
  archivejobs: STAFF,
  restorejobs: STAFF,
} as const satisfies ActionRoles;

/** Job fields a worker may write on its own jobs (`extra_*_val` and `custom_*` match by pattern). */
export const WORKER_JOB_FIELDS = [
  'tsAccepted',
  'tsRejected',
  'tsDoneSuccess',
  'tsDoneFailed',
  'tsCheckIn',
  'tsCheckOut',
  'tsCheckNFC1',
  'tsCheckNFC2',
  'textReceiver',
] as const;

/**
 * editjobs by a worker: why it may not apply this write, or null when it may. Staff may edit any
 * job. A worker edits its own jobs of today (or undated) — any day with `workers_edit_job` — and
 * only {@link WORKER_JOB_FIELDS}, `extra_*_val`, `custom_*`, and `day` with the setting.
 * @param job the job's assignee, day (YYYYMMDD or 0) and whether it is a template
 * @param keys the job fields the write names
 * @param today the company's today (YYYYMMDD)
 * @returns the rule broken, as a sentence (a field's rule starts with `<field>: `), or null
 */
export function workerJobEditDenial(
  actor: { id: string; role: Role },
  settings: { workers_edit_job: boolean },
  job: { workerId: string | null; day: number; isTemplate: boolean },
  keys: string[],
  today: number,
): string | null {
  if (actor.role !== 'worker') return null;
  if (job.isTemplate) return 'a worker may not edit templates';
  if (job.workerId !== actor.id) return 'a worker may edit only its own jobs';
  if (!settings.workers_edit_job && job.day !== 0 && job.day !== today)
    return 'a worker may edit only jobs of today unless the company enables workers_edit_job';
  for (const key of keys) {
    if ((WORKER_JOB_FIELDS as readonly string[]).includes(key) || /^extra_(number|text)_[1-4]_val$/.test(key) || key.startsWith('custom_'))
      continue;
    if (key === 'day' && settings.workers_edit_job) continue;
    return `${key}: a worker may not change it${key === 'day' ? ' unless the company enables workers_edit_job' : ''}`;
  }
  return null;
}
