import { addDays, dayInZone, zonedDayTimeToMs } from '@app/core';
import type { AlertWindow } from '../entities/alert-rule.entity';
import { hhmmIn } from './messages';

/**
 * A rule's daily window (CONTRACTS.md "Alerts and zones": `{days, start, end}` in the company time
 * zone; ISO weekdays 1 = Monday … 7, HHMM). Read minute by minute, both ends included: start 0800,
 * end 0900 covers 08:00:00 to 09:00:59. `start` > `end` is a window across midnight, belonging to the
 * day it starts on (Friday 2200–0600 ends on Saturday morning).
 */

/** ISO weekday (1 = Monday … 7 = Sunday) of calendar day `day` (YYYYMMDD). */
export function isoWeekday(day: number): number {
  const d = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100)).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Minutes after midnight of HHMM. */
export function minutesOf(hhmm: number): number {
  return Math.floor(hhmm / 100) * 60 + (hhmm % 100);
}

/** True when instant `ts` (ms) falls in `window` read in `zone`; no window = always. */
export function inWindow(window: AlertWindow | null, ts: number, zone: string): boolean {
  if (!window) return true;
  const day = dayInZone(ts, zone);
  const hhmm = Number(hhmmIn(ts, zone).replace(':', ''));
  if (window.start <= window.end) return window.days.includes(isoWeekday(day)) && hhmm >= window.start && hhmm <= window.end;
  if (hhmm >= window.start) return window.days.includes(isoWeekday(day));
  if (hhmm <= window.end) return window.days.includes(isoWeekday(addDays(day, -1)));
  return false;
}

/** One window day's period: the day it starts on (YYYYMMDD), its start and its end (the deadline), ms. */
export interface WindowPeriod {
  day: number;
  start: number;
  deadline: number;
}

/**
 * The window's periods whose deadline (its end, HH:MM:00 in `zone`) lies in (`after`, `until`] (ms),
 * oldest first: what the clock evaluates for `no_check_*` (a missed tick is caught up by the next).
 */
export function deadlinesBetween(window: AlertWindow, after: number, until: number, zone: string): WindowPeriod[] {
  if (until <= after) return [];
  const overnight = window.start > window.end;
  const out: WindowPeriod[] = [];
  const last = dayInZone(until, zone);
  for (let day = addDays(dayInZone(after, zone), -2); day <= last; day = addDays(day, 1)) {
    if (!window.days.includes(isoWeekday(day))) continue;
    const deadline = zonedDayTimeToMs(overnight ? addDays(day, 1) : day, minutesOf(window.end), zone);
    if (deadline <= after || deadline > until) continue;
    out.push({ day, start: zonedDayTimeToMs(day, minutesOf(window.start), zone), deadline });
  }
  return out;
}
