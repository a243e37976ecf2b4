/**
 * The one rule for on-site time (docs/reports.md "On-site time"), used by every report that counts
 * time at places or jobs: `statistics`, `memberonsite`, `timeallocation` and `placeonsite`. Pure: no
 * I/O, no clock ("now" is a parameter), instants in ms since the epoch.
 *
 * - A **visit** runs from its check-in (`inTs`) to its check-out (`outTs`) at one place or job.
 * - A visit **belongs to** a report covering the span [start, end) when it overlaps it: it began
 *   before the span's end and had not ended at its start (a visit inside the span that lasted 0 ms
 *   belongs too). An open visit (no check-out yet) runs on up to min(span end, now).
 * - Its **on-site time** in that report is the part of [inTs, outTs) inside the span; an open visit's
 *   end is min(span end, now) — the same end as an open clock-in's in the timesheet: we hold no other
 *   end, and a member on site while the report is taken is on site.
 * - A total is the sum of its visits' on-site times.
 */
import type { Interval } from './time-accounting';

/** A visit's check-in and check-out (ms); `outTs` null while the visit is open. */
export interface VisitTimes {
  inTs: number;
  outTs: number | null;
}

/** The end an open visit is counted to: min(span end, now), ms. */
export function openVisitEnd(span: Interval, nowMs: number): number {
  return Math.min(span.end, nowMs);
}

/**
 * The part of visit `v` counted as on-site time in a report covering `span`: [max(in, span start),
 * min(out — for an open visit min(span end, now) —, span end)); `end` = `start` when nothing counts.
 */
export function onsiteInterval(v: VisitTimes, span: Interval, nowMs: number): Interval {
  const start = Math.max(v.inTs, span.start);
  const end = Math.min(v.outTs ?? openVisitEnd(span, nowMs), span.end);
  return { start, end: Math.max(start, end) };
}

/** {@link onsiteInterval}'s length in s. */
export function onsiteSeconds(v: VisitTimes, span: Interval, nowMs: number): number {
  const i = onsiteInterval(v, span, nowMs);
  return (i.end - i.start) / 1000;
}

/**
 * Whether visit `v` belongs to a report covering `span`: it began before the span's end and ended
 * after its start — an open visit ends at min(span end, now) — or it lies in the span with 0 ms.
 */
export function visitInSpan(v: VisitTimes, span: Interval, nowMs: number): boolean {
  if (v.inTs >= span.end) return false;
  const end = v.outTs ?? openVisitEnd(span, nowMs);
  return end > span.start || (v.inTs >= span.start && end >= v.inTs);
}
