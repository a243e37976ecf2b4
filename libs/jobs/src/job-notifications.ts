/**
 * The notifications job writes give (CONTRACTS.md, "Members and company"): `sendRouteChange`
 * notifies the assignee of a job (newly) assigned for today; `notify` tells the job's dispatcher
 * (else the whole company) of a progress change, a delete, an archive or a restore.
 */
declare module '@app/core' {
  interface NotificationKinds {
    route_changed: { memberId: string; jobId: string };
    job_progress: { memberId: string | null; jobId: string };
    job_deleted: { memberId: string | null; jobId: string };
    job_archived: { memberId: string | null; jobId: string };
    job_restored: { memberId: string | null; jobId: string };
  }
}

/** Kinds of the notifications sent to a job's dispatcher (company-wide when it has none). */
export type DispatcherNotificationKind = 'job_progress' | 'job_deleted' | 'job_archived' | 'job_restored';
