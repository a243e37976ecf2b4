import { addMonths, monthStart, partitionEndsBefore, partitionName } from './partitions';

describe('partition months', () => {
  const ts = Date.UTC(2026, 10, 23, 12, 30);

  it('finds the month start, later months and the partition name (UTC)', () => {
    expect(monthStart(ts)).toBe(Date.UTC(2026, 10, 1));
    expect(addMonths(ts, 2)).toBe(Date.UTC(2027, 0, 1));
    expect(addMonths(ts, -11)).toBe(Date.UTC(2025, 11, 1));
    expect(partitionName(ts)).toBe('location_fixes_p202611');
    expect(partitionName(Date.UTC(2027, 0, 1) - 1)).toBe('location_fixes_p202612');
  });

  it('tells whether a partition’s whole month lies before a cutoff', () => {
    expect(partitionEndsBefore('location_fixes_p202605', Date.UTC(2026, 5, 1))).toBe(true);
    expect(partitionEndsBefore('location_fixes_p202605', Date.UTC(2026, 5, 1) - 1)).toBe(false);
    expect(partitionEndsBefore('location_fixes_p202612', Date.UTC(2027, 0, 1))).toBe(true);
    expect(partitionEndsBefore('location_fixes_default', 0)).toBeNull();
  });
});
