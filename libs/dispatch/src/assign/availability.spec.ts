import { availabilityOn, isWorkingOn, weekdayOf, WeekHoursInput } from './availability';

const week = (h: { start: number; end: number }, off: string[] = []): WeekHoursInput => {
  const out: WeekHoursInput = {};
  for (const d of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const) {
    out[d] = off.includes(d) ? { start: 0, end: 0 } : h;
  }
  return out;
};
const nineToFive = { start: 540, end: 1020 };
const MONDAY = 20261123; // a Monday
const SUNDAY = 20261129;
const mondayStart = Date.UTC(2026, 10, 23);

describe('weekdayOf', () => {
  it('names the weekday of a calendar day', () => {
    expect(weekdayOf(MONDAY)).toBe('monday');
    expect(weekdayOf(SUNDAY)).toBe('sunday');
    expect(weekdayOf(20240229)).toBe('thursday');
  });
  it('refuses a day that is not a date', () => {
    expect(() => weekdayOf(20261131)).toThrow(RangeError);
    expect(() => weekdayOf(2026112)).toThrow(RangeError);
  });
});

describe('availabilityOn', () => {
  it('nothing set anywhere: available', () => {
    expect(availabilityOn({ dayStartMs: mondayStart }, MONDAY)).toEqual({ working: true, source: 'unset' });
    expect(isWorkingOn({ overrides: {}, hours: null, teamHours: null, companyHours: null, dayStartMs: mondayStart }, MONDAY)).toBe(true);
  });

  it("the member's own hours decide: a working weekday, and 0/0 off", () => {
    const hours = week(nineToFive, ['sunday']);
    expect(availabilityOn({ hours, dayStartMs: mondayStart }, MONDAY)).toMatchObject({ working: true, source: 'member' });
    expect(availabilityOn({ hours, dayStartMs: mondayStart }, SUNDAY)).toMatchObject({ working: false, source: 'member' });
  });

  it('an override for the day wins over the hours, both ways', () => {
    const hours = week(nineToFive, ['sunday']);
    expect(availabilityOn({ hours, overrides: { [MONDAY]: { start: 0, end: 0 } }, dayStartMs: mondayStart }, MONDAY)).toMatchObject({
      working: false,
      source: 'override',
    });
    expect(availabilityOn({ hours, overrides: { [SUNDAY]: { start: 600, end: 720 } }, dayStartMs: mondayStart }, SUNDAY)).toMatchObject({
      working: true,
      source: 'override',
    });
    // an override for another day changes nothing
    expect(isWorkingOn({ hours, overrides: { [MONDAY]: { start: 0, end: 0 } }, dayStartMs: mondayStart }, 20261124)).toBe(true);
  });

  it("without own hours, the first team's hours decide, then the company's", () => {
    const team = week(nineToFive, ['monday']);
    const company = week(nineToFive);
    expect(availabilityOn({ teamHours: team, companyHours: company, dayStartMs: mondayStart }, MONDAY)).toMatchObject({
      working: false,
      source: 'team',
    });
    expect(availabilityOn({ teamHours: null, companyHours: week(nineToFive, ['monday']), dayStartMs: mondayStart }, MONDAY)).toMatchObject({
      working: false,
      source: 'company',
    });
    expect(availabilityOn({ hours: week(nineToFive), teamHours: team, dayStartMs: mondayStart }, MONDAY)).toMatchObject({
      working: true,
      source: 'member',
    });
  });

  it('ignore_working_hours_until_ts later than the day start makes the member available', () => {
    const off = { hours: week(nineToFive, ['monday']), overrides: { [MONDAY]: { start: 0, end: 0 } } };
    expect(availabilityOn({ ...off, ignoreUntilTs: mondayStart + 1, dayStartMs: mondayStart }, MONDAY)).toEqual({ working: true, source: 'ignored' });
    // not later: the hours decide
    expect(isWorkingOn({ ...off, ignoreUntilTs: mondayStart, dayStartMs: mondayStart }, MONDAY)).toBe(false);
    expect(isWorkingOn({ ...off, ignoreUntilTs: 0, dayStartMs: mondayStart }, MONDAY)).toBe(false);
  });
});
