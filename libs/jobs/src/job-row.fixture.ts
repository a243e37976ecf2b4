import { newJobState } from './job-write';
import { JobRow, jobRowOf } from './job-view';

/**
 * For unit specs: a job row as `JOB_SELECT_SQL` answers it — a new job's state as the write builder
 * makes it ({@link newJobState}: its defaults, not restated here) created by `M1` through the api at
 * 1000 and saved at 2000, titled `Boiler`: unassigned, no place, company default radius 100 in
 * Ljubljana.
 */
export function jobRow(over: Partial<JobRow> = {}): JobRow {
  const state = newJobState({ id: 'J1', companyId: 'C1', isTemplate: false, createdBy: 'M1', createdVia: 'api', now: 1000 });
  const row = jobRowOf(
    { ...state, destinationName: 'Boiler' },
    {
      tsSaved: 2000,
      createdAt: 2000,
      workerUsername: null,
      workerName: null,
      workerEmail: null,
      workerPhone: null,
      dispatcherName: null,
      placeName: null,
      placeRadius: null,
      defaultRadius: 100,
      timezone: 'Europe/Ljubljana',
      linkedZones: '',
      extraLabels: {},
    },
  );
  return { ...row, ...over };
}
