import type { ColumnSpec, ReportLocale } from '../report-table';
import { columnTitle, formatCell, formatDuration, propertyValue, reportColumns, wallClock } from './cell-format';

const LJ: ReportLocale = { timezone: 'Europe/Ljubljana', unitTime: '24', unitDate: 'DD.MM.YYYY', unitDistance: 'SI' };
const NY: ReportLocale = { timezone: 'America/New_York', unitTime: '12', unitDate: 'MM/DD/YYYY', unitDistance: 'US' };
const ISO: ReportLocale = { timezone: 'UTC', unitTime: '24', unitDate: 'YYYY-MM-DD', unitDistance: 'SI' };

describe('cell-format', () => {
  it('datetime across the spring DST change in Europe/Ljubljana (CET → CEST on 2024-03-31)', () => {
    expect(formatCell(Date.UTC(2024, 2, 31, 0, 30), 'datetime', LJ)).toBe('31.03.2024 01:30');
    // 01:30 UTC is 03:30 CEST: 02:xx does not exist that day
    expect(formatCell(Date.UTC(2024, 2, 31, 1, 30), 'datetime', LJ)).toBe('31.03.2024 03:30');
    expect(formatCell(Date.UTC(2024, 2, 30, 23, 15), 'datetime', LJ)).toBe('31.03.2024 00:15');
    expect(formatCell(Date.UTC(2024, 2, 31, 22, 5), 'time', LJ)).toBe('00:05');
  });

  it('datetime in New York with a 12-hour clock and MM/DD/YYYY, through the autumn DST change', () => {
    expect(formatCell(Date.UTC(2024, 10, 3, 5, 30), 'datetime', NY)).toBe('11/03/2024 1:30 AM'); // EDT
    expect(formatCell(Date.UTC(2024, 10, 3, 6, 30), 'datetime', NY)).toBe('11/03/2024 1:30 AM'); // EST
    expect(formatCell(Date.UTC(2024, 6, 4, 17, 5), 'datetime', NY)).toBe('07/04/2024 1:05 PM');
    expect(formatCell(Date.UTC(2024, 6, 4, 4, 0), 'datetime', NY)).toBe('07/04/2024 12:00 AM');
    expect(formatCell(Date.UTC(2024, 6, 4, 16, 0), 'time', NY)).toBe('12:00 PM');
    expect(wallClock(Date.UTC(2024, 6, 4, 4, 0), 'America/New_York')).toEqual({ year: 2024, month: 7, day: 4, hour: 0, minute: 0, second: 0 });
  });

  it('date patterns from YYYYMMDD', () => {
    expect(formatCell(20240305, 'date', ISO)).toBe('2024-03-05');
    expect(formatCell(20240305, 'date', LJ)).toBe('05.03.2024');
    expect(formatCell(20240305, 'date', NY)).toBe('03/05/2024');
    expect(formatCell(20240305, 'date', { ...ISO, unitDate: 'D.M.YY' })).toBe('5.3.24');
  });

  it('durations, distances and speeds in the requester units', () => {
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatCell(3725, 'duration', ISO)).toBe('1:02:05');
    expect(formatCell(100 * 3600 + 59.6, 'duration', ISO)).toBe('100:01:00');
    expect(formatCell(-61, 'duration', ISO)).toBe('-0:01:01');
    expect(formatCell(12345, 'distance', ISO)).toBe('12.35');
    expect(formatCell(1609.344, 'distance', NY)).toBe('1.00');
    expect(formatCell(10000, 'distance', NY)).toBe('6.21');
    expect(formatCell(10, 'speed', ISO)).toBe('36.0');
    expect(formatCell(10, 'speed', NY)).toBe('22.4');
  });

  it('numbers, integers, checks, text and empties', () => {
    expect(formatCell(1.005, 'number', ISO)).toBe('1.01');
    expect(formatCell(2.5, 'number', ISO)).toBe('2.5');
    expect(formatCell(-3, 'number', ISO)).toBe('-3');
    expect(formatCell(7.6, 'integer', ISO)).toBe('8');
    expect(formatCell(true, 'check', ISO)).toBe('✓');
    expect(formatCell(false, 'check', ISO)).toBe('');
    expect(formatCell('some note', 'check', ISO)).toBe('✓');
    expect(formatCell(null, 'check', ISO)).toBe('');
    expect(formatCell(null, 'datetime', ISO)).toBe('');
    expect(formatCell(undefined, 'distance', ISO)).toBe('');
    expect(formatCell('x', 'text', ISO)).toBe('x');
  });

  it('geojson property values: converted numbers, formatted times, booleans', () => {
    expect(propertyValue(10000, 'distance', NY)).toBe(6.21);
    expect(propertyValue(10, 'speed', ISO)).toBe(36);
    expect(propertyValue(3725, 'duration', ISO)).toBe('1:02:05');
    expect(propertyValue(Date.UTC(2024, 0, 1, 8, 0), 'datetime', LJ)).toBe('01.01.2024 09:00');
    expect(propertyValue(null, 'check', ISO)).toBe(false);
    expect(propertyValue(null, 'number', ISO)).toBeNull();
  });

  it('titles carry the unit', () => {
    expect(columnTitle({ title: 'Distance', kind: 'distance' }, ISO)).toBe('Distance (km)');
    expect(columnTitle({ title: 'Distance', kind: 'distance' }, NY)).toBe('Distance (mi)');
    expect(columnTitle({ title: 'Speed', kind: 'speed' }, NY)).toBe('Speed (mph)');
    expect(columnTitle({ title: 'Duration', kind: 'duration' }, ISO)).toBe('Duration (h:mm:ss)');
    expect(columnTitle({ title: 'Name', kind: 'text' }, ISO)).toBe('Name');
  });

  describe('reportColumns', () => {
    const specs: ColumnSpec[] = [
      { key: 'name', title: 'Name', kind: 'text', width: 30 },
      { key: 'start', title: 'Start', kind: 'datetime' },
      { key: 'distance', title: 'Distance', kind: 'distance' },
      { key: 'note', title: 'Note', kind: 'text', default: false },
    ];

    it('the default set without a request', () => {
      expect(reportColumns(specs, undefined, NY)).toEqual([
        { key: 'name', title: 'Name', kind: 'text', width: 30 },
        { key: 'start', title: 'Start', kind: 'datetime', width: 17 },
        { key: 'distance', title: 'Distance (mi)', kind: 'distance', width: 13 },
      ]);
      expect(reportColumns(specs, [], ISO).map((c) => c.key)).toEqual(['name', 'start', 'distance']);
    });

    it('the requested ones in request order, renamed and as checks', () => {
      expect(
        reportColumns(specs, [{ key: 'note', isCheck: true }, { key: 'distance', rename: 'Driven' }, { key: 'name', rename: 'Who' }], ISO),
      ).toEqual([
        { key: 'note', title: 'Note', kind: 'check', width: 4 },
        { key: 'distance', title: 'Driven (km)', kind: 'distance', width: 11 },
        { key: 'name', title: 'Who', kind: 'text', width: 30 },
      ]);
    });

    it('refuses a key the type does not offer', () => {
      expect(() => reportColumns(specs, [{ key: 'nope' }], ISO)).toThrow('unknown report column "nope"');
    });
  });
});
