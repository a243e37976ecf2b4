import { TeamConfig, WEEKDAYS, WorkingHours } from './entities/company.entity';
import {
  dayHoursProblem,
  isPlainObject,
  normalizeTeam,
  teamsConfigProblem,
  workingHoursOverridesProblem,
  workingHoursProblem,
} from './member-rules';

const RANGE = 'must have 0 ≤ start < end ≤ 1440 (or start 0 and end 0 for off)';

/** Monday–Friday 8:00–16:00, weekend off. */
const week = (): WorkingHours => ({
  monday: { start: 480, end: 960 },
  tuesday: { start: 480, end: 960 },
  wednesday: { start: 480, end: 960 },
  thursday: { start: 480, end: 960 },
  friday: { start: 480, end: 960 },
  saturday: { start: 0, end: 0 },
  sunday: { start: 0, end: 0 },
});

describe('dayHoursProblem', () => {
  it.each([
    [0, 1440],
    [0, 1],
    [1439, 1440],
    [480, 960],
    [0, 0],
  ])('accepts start %p, end %p', (start, end) => {
    expect(dayHoursProblem({ start, end })).toBeNull();
  });

  it.each([
    [960, 480, 'overnight'],
    [1320, 360, 'overnight'],
    [480, 480, 'empty'],
    [1440, 1440, 'empty at midnight'],
    [-1, 480, 'negative start'],
    [0, 1441, 'end past midnight'],
    [1440, 1500, 'after midnight'],
    [-60, 0, 'negative start, end 0'],
  ])('refuses start %p, end %p (%s)', (start, end) => {
    expect(dayHoursProblem({ start, end })).toBe(RANGE);
  });

  it.each([
    [{ start: '480', end: 960 }],
    [{ start: 480.5, end: 960 }],
    [{ start: 480, end: null }],
    [{ start: 480 }],
    [{ end: 960 }],
    [{}],
    [{ start: NaN, end: 960 }],
    [{ start: 0, end: Infinity }],
  ])('refuses non-integer minutes %p', (v) => {
    expect(dayHoursProblem(v)).toBe('start and end must be integers (minutes from midnight)');
  });

  it.each([null, undefined, 480, 'x', [], [480, 960]])('refuses the non-object %p', (v) => {
    expect(dayHoursProblem(v)).toBe('must be an object {start, end}');
  });

  it('refuses unknown keys, naming the first', () => {
    expect(dayHoursProblem({ start: 0, end: 60, off: true })).toBe('has unknown key off');
    expect(dayHoursProblem({ from: 0, to: 60 })).toBe('has unknown key from');
  });
});

describe('workingHoursProblem', () => {
  it('accepts a full week, including days off', () => {
    expect(workingHoursProblem(week())).toBeNull();
    const allOff = Object.fromEntries(WEEKDAYS.map((d) => [d, { start: 0, end: 0 }]));
    expect(workingHoursProblem(allOff)).toBeNull();
    const allDay = Object.fromEntries(WEEKDAYS.map((d) => [d, { start: 0, end: 1440 }]));
    expect(workingHoursProblem(allDay)).toBeNull();
  });

  it.each(WEEKDAYS.map((d) => [d]))('requires %s', (day) => {
    const hours: Record<string, unknown> = week();
    delete hours[day];
    expect(workingHoursProblem(hours)).toBe(`must have all seven days (missing ${day})`);
  });

  it('names the day with bad hours', () => {
    expect(workingHoursProblem({ ...week(), wednesday: { start: 1320, end: 360 } })).toBe(`wednesday ${RANGE}`);
    expect(workingHoursProblem({ ...week(), sunday: { start: 0, end: 1441 } })).toBe(`sunday ${RANGE}`);
    expect(workingHoursProblem({ ...week(), friday: null })).toBe('friday must be an object {start, end}');
    expect(workingHoursProblem({ ...week(), monday: { start: 0, end: 60, note: 'x' } })).toBe('monday has unknown key note');
  });

  it('refuses unknown keys, also misspelt days', () => {
    expect(workingHoursProblem({ ...week(), holiday: { start: 0, end: 0 } })).toBe('has unknown key holiday');
    const { monday, ...rest } = week();
    expect(workingHoursProblem({ ...rest, Monday: monday })).toBe('has unknown key Monday');
  });

  it('admits `source` only with allowSource', () => {
    const withSource = { ...week(), source: 'team' };
    expect(workingHoursProblem(withSource)).toBe('has unknown key source');
    expect(workingHoursProblem(withSource, false)).toBe('has unknown key source');
    expect(workingHoursProblem(withSource, true)).toBeNull();
    expect(workingHoursProblem({ ...week(), source: 'default' }, true)).toBeNull();
    // allowSource does not waive the seven days
    const { sunday: _sunday, ...noSunday } = withSource;
    expect(workingHoursProblem(noSunday, true)).toBe('must have all seven days (missing sunday)');
  });

  it.each([null, undefined, [], 'mon-fri', 40])('refuses the non-object %p', (v) => {
    expect(workingHoursProblem(v)).toBe('must be an object with keys monday to sunday');
  });
});

describe('workingHoursOverridesProblem', () => {
  it('accepts real dates with valid hours, and an empty object', () => {
    expect(workingHoursOverridesProblem({})).toBeNull();
    expect(
      workingHoursOverridesProblem({
        '20240229': { start: 0, end: 0 },
        '20261231': { start: 600, end: 720 },
        '19000101': { start: 0, end: 1440 },
      }),
    ).toBeNull();
  });

  it.each([
    '20230229',
    '20261301',
    '20260431',
    '20260100',
    '2026011',
    '202601011',
    '2026-01-01',
    'today',
    '00000000',
    '18991231',
    '+2026010',
  ])('refuses the key %p', (key) => {
    expect(workingHoursOverridesProblem({ [key]: { start: 0, end: 0 } })).toBe(`key ${key} must be a real date YYYYMMDD`);
  });

  it('names the date with bad hours', () => {
    expect(workingHoursOverridesProblem({ '20260101': { start: 0, end: 0 }, '20260102': { start: 900, end: 600 } })).toBe(
      `20260102 ${RANGE}`,
    );
    expect(workingHoursOverridesProblem({ '20260102': 'off' })).toBe('20260102 must be an object {start, end}');
  });

  function overrides(n: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const start = Date.UTC(2024, 0, 1);
    for (let i = 0; i < n; i++) {
      const key = new Date(start + i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
      out[key] = { start: 0, end: 0 };
    }
    return out;
  }

  it('allows at most 366 entries', () => {
    expect(Object.keys(overrides(366))).toHaveLength(366);
    expect(workingHoursOverridesProblem(overrides(366))).toBeNull();
    expect(workingHoursOverridesProblem(overrides(367))).toBe('must have at most 366 entries');
  });

  it.each([null, undefined, [], '20260101', 1])('refuses the non-object %p', (v) => {
    expect(workingHoursOverridesProblem(v)).toBe('must be an object keyed by YYYYMMDD');
  });
});

describe('teamsConfigProblem', () => {
  it('accepts valid teams, with or without hours and route', () => {
    expect(teamsConfigProblem([])).toBeNull();
    expect(
      teamsConfigProblem([
        { id: 1, name: 'North' },
        { id: 7, name: 'South', working_hours: week() },
        { id: 2147483647, name: 'x'.repeat(100), working_hours: { ...week(), source: 'team' }, route: { lat: -90, lng: 180, time: 0 } },
        { id: 3, name: 'East', working_hours: null, route: null },
        { id: 4, name: 'West', route: {} },
        { id: 5, name: 'Edge', route: { lat: 90, lng: -180, time: 1439 } },
      ]),
    ).toBeNull();
  });

  it.each([null, undefined, {}, 'teams', { id: 1, name: 'A' }])('refuses the non-array %p', (v) => {
    expect(teamsConfigProblem(v)).toBe('must be an array of teams');
  });

  it('allows at most 1000 teams', () => {
    const teams = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `T${i + 1}` }));
    expect(teamsConfigProblem(teams(1000))).toBeNull();
    expect(teamsConfigProblem(teams(1001))).toBe('must have at most 1000 teams');
  });

  it('refuses a team that is not an object, naming its index', () => {
    expect(teamsConfigProblem([{ id: 1, name: 'A' }, null])).toBe('[1] must be an object {id, name}');
    expect(teamsConfigProblem([[1, 'A']])).toBe('[0] must be an object {id, name}');
    expect(teamsConfigProblem([1])).toBe('[0] must be an object {id, name}');
  });

  it('refuses unknown keys', () => {
    expect(teamsConfigProblem([{ id: 1, name: 'A', colour: 'red' }])).toBe('[0] has unknown key colour');
    expect(teamsConfigProblem([{ id: 1, name: 'A', source: 'team' }])).toBe('[0] has unknown key source');
  });

  it.each([0, -1, 1.5, '1', null, undefined, 2147483648, NaN])('refuses the id %p', (id) => {
    expect(
      teamsConfigProblem([
        { id: 1, name: 'A' },
        { id, name: 'B' },
      ]),
    ).toBe('[1].id must be an integer ≥ 1');
  });

  it('refuses an id used twice', () => {
    expect(
      teamsConfigProblem([
        { id: 3, name: 'A' },
        { id: 4, name: 'B' },
        { id: 3, name: 'C' },
      ]),
    ).toBe('[2].id 3 is used twice');
  });

  it.each(['', '   ', 'x'.repeat(101), 5, null, undefined])('refuses the name %p', (name) => {
    expect(teamsConfigProblem([{ id: 1, name }])).toBe('[0].name must be a string of 1 to 100 characters');
  });

  it('checks a team’s working_hours, admitting `source`', () => {
    const { monday: _monday, ...noMonday } = week();
    expect(teamsConfigProblem([{ id: 1, name: 'A', working_hours: noMonday }])).toBe(
      '[0].working_hours must have all seven days (missing monday)',
    );
    expect(teamsConfigProblem([{ id: 1, name: 'A', working_hours: { ...week(), tuesday: { start: 600, end: 500 } } }])).toBe(
      `[0].working_hours tuesday ${RANGE}`,
    );
    expect(teamsConfigProblem([{ id: 1, name: 'A', working_hours: 'nine-to-five' }])).toBe(
      '[0].working_hours must be an object with keys monday to sunday',
    );
  });

  it.each([
    [{ lat: 90.0001 }, 'lat must be a number in [-90, 90]'],
    [{ lat: -91 }, 'lat must be a number in [-90, 90]'],
    [{ lat: '46' }, 'lat must be a number in [-90, 90]'],
    [{ lat: NaN }, 'lat must be a number in [-90, 90]'],
    [{ lat: null }, 'lat must be a number in [-90, 90]'],
    [{ lng: 180.5 }, 'lng must be a number in [-180, 180]'],
    [{ lng: -181 }, 'lng must be a number in [-180, 180]'],
    [{ lng: Infinity }, 'lng must be a number in [-180, 180]'],
    [{ time: 1440 }, 'time must be minutes from midnight (0 to 1439)'],
    [{ time: -1 }, 'time must be minutes from midnight (0 to 1439)'],
    [{ time: 60.5 }, 'time must be minutes from midnight (0 to 1439)'],
    [{ time: '480' }, 'time must be minutes from midnight (0 to 1439)'],
    [{ lat: 46, lng: 14, time: 480, zoom: 3 }, 'has unknown key zoom'],
  ])('refuses the route %p', (route, problem) => {
    expect(
      teamsConfigProblem([
        { id: 1, name: 'A' },
        { id: 2, name: 'B', route },
      ]),
    ).toBe(`[1].route ${problem}`);
  });

  it.each([[[]], ['46,14'], [5]])('refuses the non-object route %p', (route) => {
    expect(teamsConfigProblem([{ id: 1, name: 'A', route }])).toBe('[0].route must be an object {lat, lng, time}');
  });
});

describe('normalizeTeam', () => {
  it('strips working_hours.source and keeps the hours', () => {
    const team = { id: 1, name: 'A', working_hours: { ...week(), source: 'team' } } as TeamConfig;
    const out = normalizeTeam(team);
    expect(out).toEqual({ id: 1, name: 'A', working_hours: week() });
    expect(out.working_hours).not.toHaveProperty('source');
    // the input is left alone
    expect(team.working_hours).toHaveProperty('source', 'team');
  });

  it('keeps only id, name, working_hours and route', () => {
    const route = { lat: 46.05, lng: 14.5, time: 420 };
    const team = { id: 2, name: 'B', working_hours: week(), route, extra: 'dropped' } as TeamConfig;
    expect(normalizeTeam(team)).toEqual({ id: 2, name: 'B', working_hours: week(), route });
  });

  it('omits absent or null hours and route', () => {
    expect(normalizeTeam({ id: 3, name: 'C' })).toEqual({ id: 3, name: 'C' });
    const out = normalizeTeam({ id: 3, name: 'C', working_hours: null, route: null } as unknown as TeamConfig);
    expect(out).toEqual({ id: 3, name: 'C' });
    expect(Object.keys(out)).toEqual(['id', 'name']);
  });

  it('gives a team that passes teamsConfigProblem without allowSource afterwards', () => {
    const team = { id: 4, name: 'D', working_hours: { ...week(), source: 'default' } } as TeamConfig;
    expect(workingHoursProblem(team.working_hours)).toBe('has unknown key source');
    expect(workingHoursProblem(normalizeTeam(team).working_hours)).toBeNull();
  });
});

describe('isPlainObject', () => {
  it('is true for objects only, not arrays or null', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    for (const v of [null, undefined, [], 0, '', 'x', true]) expect(isPlainObject(v)).toBe(false);
  });
});
