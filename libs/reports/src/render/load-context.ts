import { addDays, zonedDayTimeToMs } from '@app/core/pure';
import type { ReportContext, ReportDb } from '../report-definition';
import type { ReportLocale } from '../report-table';
import type { RenderJob } from '../report-run';
import { readReportCompany, readReportMembers, readReportPlaces, readReportRequester } from '../reads/members-report-context.read';
import { envStopMinutes } from '../definitions/track-days';

/**
 * Reads (`../reads/members-report-context.read.ts`) what a report needs besides its rows — the company, the requester's preferences (its time
 * zone, else the company's; `unit_time`, `unit_date`, `unit_distance`), the named members and places
 * in request order — and turns the range's days into instants in the company's time zone. The stop
 * threshold: the request's `stopMinutes`, else the company's `stop_minutes`, else TRACK_STOP_MINUTES.
 * @throws Error when the company or the requester is gone (the run fails as an internal error)
 */
export async function loadReportContext(db: ReportDb, job: RenderJob): Promise<ReportContext> {
  const company = await readReportCompany(db, job.companyId);
  if (!company) throw new Error(`company ${job.companyId} not found`);
  const requester = await readReportRequester(db, job.companyId, job.memberId);
  if (!requester) throw new Error(`requesting member ${job.memberId} not found`);
  const locale: ReportLocale = {
    timezone: requester.timezone || company.timezone || 'UTC',
    unitTime: requester.unit_time === '12' ? '12' : '24',
    unitDate: requester.unit_date || 'YYYY-MM-DD',
    unitDistance: requester.unit_distance === 'US' ? 'US' : 'SI',
  };
  const { params } = job;
  const memberRows = params.memberIds.length ? await readReportMembers(db, job.companyId, params.memberIds, company.timezone) : [];
  const placeRows = params.placeIds.length ? await readReportPlaces(db, job.companyId, params.placeIds) : [];
  const range = params.range && {
    ...params.range,
    fromMs: zonedDayTimeToMs(params.range.from, 0, company.timezone),
    untilMs: zonedDayTimeToMs(addDays(params.range.until, 1), 0, company.timezone),
  };
  return {
    db,
    companyId: job.companyId,
    company: { name: company.name, timezone: company.timezone },
    requester: { id: job.memberId, name: requester.name },
    locale,
    members: inOrder(params.memberIds, memberRows),
    places: inOrder(params.placeIds, placeRows),
    range,
    stopMinutes: params.stopMinutes ?? company.stop_minutes ?? envStopMinutes(),
  };
}

/** `rows` in the order of `ids` (ids without a row dropped). */
function inOrder<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}
