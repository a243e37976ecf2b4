import { zonedDayTimeToMs } from '@app/core/pure';
import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { ClockedTime, Interval, intersect, sameDayGaps, totalMs, union } from './time-accounting';
import { readJobFacts } from '../reads/jobs-rows.read';
import { memberSpan, readClocked, readTracks, readVisits, TrackSpan, Visit } from './time-data';

/** The `statistics` report's columns: exactly the spec's keys, in its order (docs/reports.md "statistics" defines each). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'distance', title: 'Distance', kind: 'distance', width: 10 },
  { key: 'speed', title: 'Average speed', kind: 'speed', width: 10 },
  { key: 'maxspeed', title: 'Max speed', kind: 'speed', width: 10 },
  { key: 'tracks', title: 'Tracks', kind: 'integer', width: 8 },
  { key: 'jobs', title: 'Jobs', kind: 'integer', width: 7 },
  { key: 'ontime', title: 'On time', kind: 'integer', width: 8 },
  { key: 'delays', title: 'Delays', kind: 'integer', width: 8 },
  { key: 'success', title: 'Success', kind: 'integer', width: 8 },
  { key: 'issues', title: 'Issues', kind: 'integer', width: 8 },
  { key: 'engagement', title: 'Engagement (%)', kind: 'number', width: 11 },
  { key: 'totalJobOnsite', title: 'Job on-site time', kind: 'duration', width: 11 },
  { key: 'avgJobOnsite', title: 'Avg job on-site time', kind: 'duration', width: 11 },
  { key: 'totalPlaceOnsiteTime', title: 'Place on-site time', kind: 'duration', width: 11 },
  { key: 'avgPlaceOnsiteTime', title: 'Avg place on-site time', kind: 'duration', width: 11 },
  { key: 'totalPauseTime', title: 'Pause time', kind: 'duration', width: 11 },
  { key: 'avgPauseTime', title: 'Avg pause', kind: 'duration', width: 11 },
  { key: 'totalTravelTime', title: 'Travel time', kind: 'duration', width: 11 },
  { key: 'avgTravelTime', title: 'Avg travel time', kind: 'duration', width: 11 },
  { key: 'totalTimeBetweenJobs', title: 'Time between jobs', kind: 'duration', width: 11 },
  { key: 'avgTimeBetweenJobs', title: 'Avg time between jobs', kind: 'duration', width: 11 },
];

/** A job's figures for on-time and outcome counts. */
export interface JobFacts {
  /** YYYYMMDD (company days) */
  day: number;
  /** HHMM, 0 = none */
  windowStart: number;
  /** HHMM, 0 = none (with a start: the end of the day) */
  windowEnd: number;
  /** ms, 0 = never checked in */
  tsCheckIn: number;
  tsDoneSuccess: number;
  tsDoneFailed: number;
}

/** Job counts of a member: all, on time, delayed, success, issues. */
export interface JobCounts {
  jobs: number;
  ontime: number;
  delays: number;
  success: number;
  issues: number;
}

const minutesOf = (hhmm: number) => Math.floor(hhmm / 100) * 60 + (hhmm % 100);

/**
 * Adds one job to `counts`. A job has a window when `windowStart` or `windowEnd` is set (end 0 = the
 * end of its day); read on its day in `zone` (the company's: a job's day is a company day). On time:
 * checked in within [start, end]; delay: checked in after the end; a check-in before the start, no
 * check-in, or no window counts as neither.
 */
export function countJob(counts: JobCounts, job: JobFacts, zone: string): void {
  counts.jobs++;
  if (job.tsDoneSuccess > 0) counts.success++;
  if (job.tsDoneFailed > 0) counts.issues++;
  if (job.tsCheckIn <= 0 || (job.windowStart === 0 && job.windowEnd === 0) || job.day === 0) return;
  const start = zonedDayTimeToMs(job.day, minutesOf(job.windowStart), zone);
  const end = zonedDayTimeToMs(job.day, job.windowEnd === 0 ? 1440 : minutesOf(job.windowEnd), zone);
  if (job.tsCheckIn > end) counts.delays++;
  else if (job.tsCheckIn >= start) counts.ontime++;
}

/** `total / n`, null when there is nothing to average. */
const avg = (total: number, n: number): number | null => (n > 0 ? total / n : null);

/**
 * A member's statistics row from its data of the span (pure):
 * - tracks that start in `span` (distance, speeds, travel time);
 * - visits belonging to it, as their on-site time by the one rule (`./onsite.ts`: cut to the span, an
 *   open one counted to min(span end, now)) — on-site times, time between jobs, engagement;
 * - clocked-in time within it (pauses, engagement); days of `zone` (the member's).
 */
export function statisticsRow(
  member: string,
  span: Interval,
  zone: string,
  clocked: ClockedTime,
  visits: readonly Visit[],
  tracks: readonly TrackSpan[],
  jobs: JobCounts,
): ReportRow {
  const own = tracks.filter((t) => t.start >= span.start && t.start < span.end);
  const distance = own.reduce((s, t) => s + t.distance, 0);
  const travelMs = own.reduce((s, t) => s + Math.max(0, t.end - t.start), 0);
  const jobVisits = visits.filter((v) => v.kind === 'job');
  const placeVisits = visits.filter((v) => v.kind === 'place');
  const jobMs = totalMs(jobVisits);
  const placeMs = totalMs(placeVisits);
  const pauses = sameDayGaps(clocked.intervals, zone);
  const between = sameDayGaps(jobVisits, zone);
  const clockedMs = totalMs(clocked.intervals);
  const engagedMs = totalMs(intersect(union(jobVisits), clocked.intervals));
  return {
    values: {
      member,
      distance,
      speed: travelMs > 0 ? distance / (travelMs / 1000) : null,
      maxspeed: own.length ? own.reduce((m, t) => Math.max(m, t.speedMax), 0) : null,
      tracks: own.length,
      jobs: jobs.jobs,
      ontime: jobs.ontime,
      delays: jobs.delays,
      success: jobs.success,
      issues: jobs.issues,
      engagement: clockedMs > 0 ? Math.round((engagedMs / clockedMs) * 1000) / 10 : null,
      totalJobOnsite: jobMs / 1000,
      avgJobOnsite: avg(jobMs / 1000, jobVisits.length),
      totalPlaceOnsiteTime: placeMs / 1000,
      avgPlaceOnsiteTime: avg(placeMs / 1000, placeVisits.length),
      totalPauseTime: totalMs(pauses) / 1000,
      avgPauseTime: avg(totalMs(pauses) / 1000, pauses.length),
      totalTravelTime: travelMs / 1000,
      avgTravelTime: avg(travelMs / 1000, own.length),
      totalTimeBetweenJobs: totalMs(between) / 1000,
      avgTimeBetweenJobs: avg(totalMs(between) / 1000, between.length),
    },
    geometry: null,
  };
}

/**
 * `statistics`: one row per member (request order) over the range — the spec's keys, each defined in
 * docs/reports.md "statistics". Jobs are those of the range's days (company days); everything else is read
 * in the member's days.
 */
export const STATISTICS_REPORT: ReportDefinition = {
  type: 'statistics',
  title: 'Statistics',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    if (!ctx.range) return;
    const now = Date.now();
    const companyZone = ctx.company.timezone || 'UTC';
    for (const member of ctx.members) {
      const span = memberSpan(ctx, member);
      const clocked = await readClocked(ctx.db, ctx.companyId, member.id, span, now);
      const visits = await readVisits(ctx.db, ctx.companyId, member.id, span, now);
      const tracks = await readTracks(ctx.db, ctx.companyId, member.id, span);
      const counts: JobCounts = { jobs: 0, ontime: 0, delays: 0, success: 0, issues: 0 };
      for await (const j of readJobFacts(ctx.db, ctx.companyId, member.id, ctx.range.from, ctx.range.until)) {
        countJob(
          counts,
          {
            day: j.day,
            windowStart: j.window_start,
            windowEnd: j.window_end,
            tsCheckIn: Number(j.ts_check_in),
            tsDoneSuccess: Number(j.ts_done_success),
            tsDoneFailed: Number(j.ts_done_failed),
          },
          companyZone,
        );
      }
      yield statisticsRow(member.name, span, member.timezone, clocked, visits, tracks, counts);
    }
  },
  count: async (ctx) => ctx.members.length,
};
