import type { AlertRule } from '../entities/alert-rule.entity';
import { checkMatches } from './check.listener';
import { rulesForZoneTransition } from './zone-rules';

const rule = (action: AlertRule['action'], f: Partial<AlertRule> = {}): AlertRule =>
  ({ id: `${action}-${f.zoneId ?? f.placeId ?? 'any'}`, action, placeId: null, zoneId: null, window: null, ...f }) as AlertRule;
const T = Date.UTC(2026, 5, 15, 10, 0); // Monday 12:00 in Ljubljana

describe('checkMatches', () => {
  const inAt = (placeId: string) => ({ placeId, kind: 'in' as const, ts: T });
  const outAt = (placeId: string) => ({ placeId, kind: 'out' as const, ts: T });

  it('matches the direction: checks_in entries, checks_out exits, checks_any both', () => {
    expect(checkMatches(rule('checks_in'), inAt('p1'), 'UTC')).toBe(true);
    expect(checkMatches(rule('checks_in'), outAt('p1'), 'UTC')).toBe(false);
    expect(checkMatches(rule('checks_out'), outAt('p1'), 'UTC')).toBe(true);
    expect(checkMatches(rule('checks_out'), inAt('p1'), 'UTC')).toBe(false);
    expect(checkMatches(rule('checks_any'), inAt('p1'), 'UTC') && checkMatches(rule('checks_any'), outAt('p1'), 'UTC')).toBe(true);
    expect(checkMatches(rule('battery_low'), inAt('p1'), 'UTC')).toBe(false);
  });

  it('a rule with a place matches only it; without, any place; the window is read in the company zone', () => {
    expect(checkMatches(rule('checks_in', { placeId: 'p1' }), inAt('p1'), 'UTC')).toBe(true);
    expect(checkMatches(rule('checks_in', { placeId: 'p1' }), inAt('p2'), 'UTC')).toBe(false);
    const window = { days: [1], start: 1100, end: 1300 };
    expect(checkMatches(rule('checks_in', { window }), inAt('p1'), 'Europe/Ljubljana')).toBe(true); // 12:00
    expect(checkMatches(rule('checks_in', { window }), inAt('p1'), 'UTC')).toBe(false); // 10:00 UTC: before 11:00
  });
});

describe('rulesForZoneTransition', () => {
  const north = { id: 'z1', name: 'North', danger: false };
  const quarry = { id: 'z2', name: 'Quarry', danger: true };
  const rules = [
    rule('enters_zone', { zoneId: 'z1' }),
    rule('leaves_zone', { zoneId: 'z1' }),
    rule('enters_danger_zone'),
    rule('enters_danger_zone', { zoneId: 'z2' }),
    rule('battery_low'),
  ];
  const ids = (rs: AlertRule[]) => rs.map((r) => r.id);

  it('an entry fires enters_zone of that zone; a danger zone also the any-danger and its own enters_danger_zone', () => {
    expect(ids(rulesForZoneTransition(rules, { key: 'z1', kind: 'in', ts: T }, north))).toEqual(['enters_zone-z1']);
    expect(ids(rulesForZoneTransition(rules, { key: 'z2', kind: 'in', ts: T }, quarry))).toEqual([
      'enters_danger_zone-any',
      'enters_danger_zone-z2',
    ]);
  });

  it('an exit fires leaves_zone of that zone only; a gap closure fires nothing', () => {
    expect(ids(rulesForZoneTransition(rules, { key: 'z1', kind: 'out', ts: T, inTs: T - 1 }, north))).toEqual(['leaves_zone-z1']);
    expect(ids(rulesForZoneTransition(rules, { key: 'z2', kind: 'out', ts: T, inTs: T - 1 }, quarry))).toEqual([]);
    expect(rulesForZoneTransition(rules, { key: 'z1', kind: 'out', ts: T, inTs: T - 1, gap: true }, north)).toEqual([]);
  });
});
