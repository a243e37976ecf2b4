import { ProgressTimestamps } from './progress';

/** Delivered action → webhook configuration key (spec "Events"). */
export const JOB_EVENT_KEYS = {
  jobcreated: 'job_created',
  jobupdated: 'job_updated',
  jobcompleted: 'job_completed',
  jobarchived: 'job_archived',
  jobdeleted: 'job_deleted',
  jobcheckin: 'job_checked',
  jobcheckout: 'job_checked',
} as const;
export type JobAction = keyof typeof JOB_EVENT_KEYS;

type Checked = ProgressTimestamps & { tsCheckOut: number };

/**
 * The events of a change that is neither a create, an archive nor a delete (CONTRACTS.md, "Which
 * events"): in order `jobcheckin` when tsCheckIn goes 0 → value, `jobcheckout` when tsCheckOut
 * does, `jobcompleted` when a done timestamp does; `jobupdated` only when none of those fired.
 * Call it only for a change that changed something.
 */
export function editEvents(before: Checked, after: Checked): JobAction[] {
  const out: JobAction[] = [];
  if (before.tsCheckIn === 0 && after.tsCheckIn > 0) out.push('jobcheckin');
  if (before.tsCheckOut === 0 && after.tsCheckOut > 0) out.push('jobcheckout');
  if ((before.tsDoneSuccess === 0 && after.tsDoneSuccess > 0) || (before.tsDoneFailed === 0 && after.tsDoneFailed > 0))
    out.push('jobcompleted');
  return out.length ? out : ['jobupdated'];
}

/** True when a change touches a progress timestamp the `notify` flag reports (completion, rejection, check-in/out). */
export function progressChanged(before: Checked, after: Checked): boolean {
  return (
    before.tsDoneSuccess !== after.tsDoneSuccess ||
    before.tsDoneFailed !== after.tsDoneFailed ||
    before.tsRejected !== after.tsRejected ||
    before.tsCheckIn !== after.tsCheckIn ||
    before.tsCheckOut !== after.tsCheckOut
  );
}
