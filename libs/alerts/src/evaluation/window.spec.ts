import { addDays } from '@app/core';
import { deadlinesBetween, inWindow, isoWeekday } from './window';

const ZONE = 'Europe/Ljubljana';
/** 2026-06-`d` (June 2026: the 15th is a Monday) at `h`:`m` in Ljubljana (CEST, UTC+2). */
const at = (d: number, h: number, m: number, s = 0) => Date.UTC(2026, 5, d, h - 2, m, s);
const WEEKDAYS = { days: [1, 2, 3, 4, 5], start: 800, end: 900 };

describe('alert windows', () => {
  it('knows ISO weekdays and adds days across months', () => {
    expect(isoWeekday(20260615)).toBe(1);
    expect(isoWeekday(20260621)).toBe(7);
    expect(addDays(20260630, 1)).toBe(20260701);
    expect(addDays(20260301, -1)).toBe(20260228);
  });

  it('contains instants from the start minute through the end minute, on its days, in the company zone', () => {
    expect(inWindow(null, 0, ZONE)).toBe(true);
    expect(inWindow(WEEKDAYS, at(15, 7, 59, 59), ZONE)).toBe(false);
    expect(inWindow(WEEKDAYS, at(15, 8, 0), ZONE)).toBe(true);
    expect(inWindow(WEEKDAYS, at(15, 9, 0, 59), ZONE)).toBe(true);
    expect(inWindow(WEEKDAYS, at(15, 9, 1), ZONE)).toBe(false);
    expect(inWindow(WEEKDAYS, at(20, 8, 30), ZONE)).toBe(false); // Saturday
    // 08:30 UTC is 10:30 in Ljubljana
    expect(inWindow(WEEKDAYS, Date.UTC(2026, 5, 15, 8, 30), ZONE)).toBe(false);
    expect(inWindow(WEEKDAYS, Date.UTC(2026, 5, 15, 8, 30), 'UTC')).toBe(true);
  });

  it('a window across midnight belongs to the day it starts on', () => {
    const night = { days: [5], start: 2200, end: 600 }; // Friday night
    expect(inWindow(night, at(19, 23, 0), ZONE)).toBe(true);
    expect(inWindow(night, at(20, 5, 0), ZONE)).toBe(true); // Saturday morning
    expect(inWindow(night, at(20, 23, 0), ZONE)).toBe(false); // Saturday night
    expect(inWindow(night, at(19, 5, 0), ZONE)).toBe(false); // Friday morning (Thursday's night)
    expect(deadlinesBetween(night, at(19, 0, 0), at(21, 0, 0), ZONE)).toEqual([
      { day: 20260619, start: at(19, 22, 0), deadline: at(20, 6, 0) },
    ]);
  });

  it('lists the deadlines in (after, until], oldest first, only on the window days', () => {
    expect(deadlinesBetween(WEEKDAYS, at(15, 9, 0), at(17, 9, 0), ZONE)).toEqual([
      { day: 20260616, start: at(16, 8, 0), deadline: at(16, 9, 0) },
      { day: 20260617, start: at(17, 8, 0), deadline: at(17, 9, 0) },
    ]);
    expect(deadlinesBetween(WEEKDAYS, at(19, 10, 0), at(22, 8, 59), ZONE)).toEqual([]); // Fri after 9, weekend, Mon before 9
    expect(deadlinesBetween(WEEKDAYS, at(17, 9, 0), at(17, 9, 0), ZONE)).toEqual([]);
  });
});
