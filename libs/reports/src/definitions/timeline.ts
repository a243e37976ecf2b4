import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { readTimelineDrives, readTimelineVisits } from '../reads/locations-timeline.read';
import { memberStops } from './stopsreport';
import { memberDayOf, memberWindow } from './track-days';

/** The `timeline` columns (ours; docs/reports.md "timeline"). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'activity', title: 'Activity', kind: 'text', width: 10 },
  { key: 'start', title: 'Start', kind: 'datetime', width: 18 },
  { key: 'end', title: 'End', kind: 'datetime', width: 18 },
  { key: 'duration', title: 'Duration', kind: 'duration', width: 10 },
  { key: 'distance', title: 'Distance', kind: 'distance', width: 10 },
  { key: 'place', title: 'Place', kind: 'text', width: 24 },
  { key: 'job', title: 'Job', kind: 'text', width: 24 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11 },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11 },
  { key: 'job_uid', title: 'Job uid', kind: 'text', default: false, width: 28 },
  { key: 'track_id', title: 'Track id', kind: 'integer', default: false },
];

/** What a timeline row is: a drive (a track), a stop (from the fixes), a place visit or a job visit (check-in to check-out). */
export type TimelineActivity = 'drive' | 'stop' | 'place' | 'job';

/** A timeline entry before it becomes a row. */
export interface TimelineEntry {
  activity: TimelineActivity;
  /** ms; `end` null for a visit not left yet */
  start: number;
  end: number | null;
  /** s; null when `end` is */
  duration: number | null;
  /** m, drives only */
  distance: number | null;
  place: string | null;
  job: string | null;
  lat: number | null;
  lng: number | null;
  jobUid: string | null;
  trackId: number | null;
}

/**
 * Order of entries starting at the same ms: the stop, then the place visit inside it, then the job
 * visit inside that (the place fence encloses a job at the place), then a drive.
 */
const RANK: Record<TimelineActivity, number> = { stop: 0, place: 1, job: 2, drive: 3 };

/** Entries in time order: by start, then {@link RANK} (a stop before the visits inside it), then end (open last). */
export function timelineOrder(entries: TimelineEntry[]): TimelineEntry[] {
  return [...entries].sort((a, b) => a.start - b.start || RANK[a.activity] - RANK[b.activity] || (a.end ?? Infinity) - (b.end ?? Infinity));
}

/** An entry as a row of `member`'s (date: the member's day of its start); Point geometry when it has a position. */
export function timelineRow(member: ReportMember, e: TimelineEntry): ReportRow {
  return {
    values: {
      member: member.name,
      date: memberDayOf(e.start, member),
      activity: e.activity,
      start: e.start,
      end: e.end,
      duration: e.duration,
      distance: e.distance,
      place: e.place,
      job: e.job,
      latitude: e.lat,
      longitude: e.lng,
      job_uid: e.jobUid,
      track_id: e.trackId,
    },
    geometry: e.lat !== null && e.lng !== null ? { type: 'Point', coordinates: [e.lng, e.lat] } : null,
  };
}

/**
 * A member's entries of the range (its own days, ≤ 14 of them: held in memory): its tracks, the
 * stops of its fixes (stopsreport's), its place and job visits.
 */
async function memberTimeline(ctx: ReportContext, member: ReportMember): Promise<TimelineEntry[]> {
  const w = memberWindow(ctx, member);
  const tracks = await readTimelineDrives(ctx.db, ctx.companyId, member.id, w.fromMs, w.untilMs);
  const visits = await readTimelineVisits(ctx.db, ctx.companyId, member.id, w.fromMs, w.untilMs);
  const stops = await memberStops(ctx, member);
  const entries: TimelineEntry[] = [
    ...tracks.map((t) => {
      const start = Number(t.start_ts);
      const end = Number(t.end_ts);
      return {
        activity: 'drive' as const,
        start,
        end,
        duration: (end - start) / 1000,
        distance: t.distance,
        place: null,
        job: null,
        lat: null,
        lng: null,
        jobUid: null,
        trackId: Number(t.id),
      };
    }),
    ...stops.map(({ stop, place }) => ({
      activity: 'stop' as const,
      start: stop.fromTs,
      end: stop.toTs,
      duration: (stop.toTs - stop.fromTs) / 1000,
      distance: null,
      place: place?.name ?? null,
      job: null,
      lat: stop.lat,
      lng: stop.lng,
      jobUid: null,
      trackId: null,
    })),
    ...visits.map((v) => {
      const start = Number(v.in_ts);
      const end = v.out_ts === null ? null : Number(v.out_ts);
      return {
        activity: v.kind,
        start,
        end,
        duration: end === null ? null : (end - start) / 1000,
        distance: null,
        place: v.place,
        job: v.title ?? null,
        lat: v.lat,
        lng: v.lng,
        jobUid: v.job_id,
        trackId: null,
      };
    }),
  ];
  return timelineOrder(entries);
}

/**
 * `timeline` (xlsx, csv): each member's days as drives (its tracks), stops (detected in its fixes,
 * as stopsreport), place visits and job visits (check-in to check-out), members in request order,
 * entries in time order. Stops and visits overlap (a visit happens during a stop); all are shown.
 */
export const TIMELINE_REPORT: ReportDefinition = {
  type: 'timeline',
  title: 'Timeline',
  columns: COLUMNS,
  async *rows(ctx: ReportContext): AsyncIterable<ReportRow> {
    for (const member of ctx.members) {
      for (const e of await memberTimeline(ctx, member)) yield timelineRow(member, e);
    }
  },
};
