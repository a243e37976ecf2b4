/**
 * Job progress (CONTRACTS.md, "Jobs"): derived from the progress timestamps, with precedence
 * success/failed > rejected > started (checked in) > accepted > scheduled. The order of
 * {@link PROGRESS_VALUES} is also the index `sort.status` uses. Archived is a flag, not a progress.
 */
export const PROGRESS_VALUES = ['scheduled', 'accepted', 'rejected', 'started', 'success', 'failed'] as const;
export type Progress = (typeof PROGRESS_VALUES)[number];

export interface ProgressTimestamps {
  tsAccepted: number;
  tsRejected: number;
  tsDoneSuccess: number;
  tsDoneFailed: number;
  tsCheckIn: number;
}

export function progressOf(j: ProgressTimestamps): Progress {
  if (j.tsDoneSuccess > 0) return 'success';
  if (j.tsDoneFailed > 0) return 'failed';
  if (j.tsRejected > 0) return 'rejected';
  if (j.tsCheckIn > 0) return 'started';
  if (j.tsAccepted > 0) return 'accepted';
  return 'scheduled';
}

/** The same precedence as SQL over a `jobs` row aliased `j`, for filters and `sort.status`. */
export const PROGRESS_SQL = `(CASE WHEN j.ts_done_success > 0 THEN 4 WHEN j.ts_done_failed > 0 THEN 5
  WHEN j.ts_rejected > 0 THEN 2 WHEN j.ts_check_in > 0 THEN 3 WHEN j.ts_accepted > 0 THEN 1 ELSE 0 END)`;

/** A progress' index in {@link PROGRESS_VALUES}: what `sort.status` and {@link PROGRESS_SQL} use. */
export function progressIndex(p: Progress): number {
  return PROGRESS_VALUES.indexOf(p);
}
