import { OutboxEventKeys } from '@app/core';
import type { JobView } from './job-view';
import { ProgressTimestamps } from './progress';

/**
 * A job event (spec "Events"; CONTRACTS.md, "Which events"): form `id` = the job's id, `data` = a
 * one-element array holding the full version-2 job.
 */
export interface JobEvent<Key extends string> {
  key: Key;
  id: string;
  data: [JobView];
}

declare module '@app/core' {
  interface OutboxEvents {
    jobcreated: JobEvent<'job_created'>;
    jobupdated: JobEvent<'job_updated'>;
    jobcompleted: JobEvent<'job_completed'>;
    jobarchived: JobEvent<'job_archived'>;
    jobdeleted: JobEvent<'job_deleted'>;
    jobcheckin: JobEvent<'job_checked'>;
    jobcheckout: JobEvent<'job_checked'>;
  }
}

/** The delivered actions of job events. */
export type JobAction = 'jobcreated' | 'jobupdated' | 'jobcompleted' | 'jobarchived' | 'jobdeleted' | 'jobcheckin' | 'jobcheckout';

/** Delivered action → webhook configuration key (spec "Events"), checked against `OutboxEvents`. */
export const JOB_EVENT_KEYS: OutboxEventKeys<JobAction> = {
  jobcreated: 'job_created',
  jobupdated: 'job_updated',
  jobcompleted: 'job_completed',
  jobarchived: 'job_archived',
  jobdeleted: 'job_deleted',
  jobcheckin: 'job_checked',
  jobcheckout: 'job_checked',
};

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
