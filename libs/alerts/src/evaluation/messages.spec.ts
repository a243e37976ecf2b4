import { alertMessage, durationText, hhmmIn } from './messages';

const ZONE = 'Europe/Ljubljana';
/** 2026-06-15 at `h`:`m` in Ljubljana (CEST, UTC+2). */
const at = (h: number, m: number) => Date.UTC(2026, 5, 15, h - 2, m);

describe('alert messages', () => {
  it('reads times in the company zone as HH:MM', () => {
    expect(hhmmIn(at(14, 5), ZONE)).toBe('14:05');
    expect(hhmmIn(at(0, 0), ZONE)).toBe('00:00');
    expect(hhmmIn(Date.UTC(2026, 0, 15, 23, 59), 'UTC')).toBe('23:59');
  });

  it('writes durations in minutes and hours', () => {
    expect(durationText(30 * 60_000)).toBe('30 min');
    expect(durationText(59_000)).toBe('1 min');
    expect(durationText(120 * 60_000)).toBe('2 h');
    expect(durationText(90 * 60_000 + 30_000)).toBe('1 h 30 min');
  });

  it('writes one sentence per kind', () => {
    const name = 'Luka Novak';
    expect(alertMessage(name, { kind: 'zone', move: 'out', danger: false, zoneName: 'North depot', ts: at(14, 5) }, ZONE)).toBe(
      'Luka Novak left zone North depot at 14:05',
    );
    expect(alertMessage(name, { kind: 'zone', move: 'in', danger: true, zoneName: 'Quarry', ts: at(14, 5) }, ZONE)).toBe(
      'Luka Novak entered danger zone Quarry at 14:05',
    );
    expect(alertMessage(name, { kind: 'check', checkType: 'IN', placeName: 'Warehouse', ts: at(8, 2) }, ZONE)).toBe(
      'Luka Novak checked in at Warehouse at 08:02',
    );
    expect(alertMessage(name, { kind: 'check', checkType: 'OUT', placeName: 'Warehouse', ts: at(17, 40) }, ZONE)).toBe(
      'Luka Novak checked out of Warehouse at 17:40',
    );
    expect(alertMessage(name, { kind: 'deadline', check: 'in', deadline: at(9, 0) }, ZONE)).toBe('Luka Novak has not checked in by 09:00');
    expect(alertMessage(name, { kind: 'deadline', check: 'out', placeName: 'Warehouse', deadline: at(17, 0) }, ZONE)).toBe(
      'Luka Novak has not checked out at Warehouse by 17:00',
    );
    expect(alertMessage(name, { kind: 'deadline', check: 'any', deadline: at(12, 30) }, ZONE)).toBe(
      'Luka Novak has not checked in or out by 12:30',
    );
    expect(alertMessage(name, { kind: 'idle', since: at(13, 10), intervalMs: 30 * 60_000 }, ZONE)).toBe(
      'Luka Novak has been idle for 30 min since 13:10',
    );
    expect(alertMessage(name, { kind: 'no_connection', lastTs: at(13, 10), intervalMs: 15 * 60_000 }, ZONE)).toBe(
      "Luka Novak's device has sent nothing for 15 min (last at 13:10)",
    );
    expect(alertMessage(name, { kind: 'battery', bat: 12, ts: at(13, 10) }, ZONE)).toBe("Luka Novak's battery is at 12 % (13:10)");
  });
});
