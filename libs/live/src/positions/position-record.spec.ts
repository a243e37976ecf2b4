import { memberState, toPositionRecord } from './position-record';

describe('position records', () => {
  it('the member state names states.moving: moving, halted, stale, off', () => {
    expect(memberState('moving')).toBe('moving');
    expect(memberState('stopped')).toBe('halted');
    expect(memberState('offline')).toBe('stale');
    expect(memberState('')).toBe('off');
  });

  it('a row → the pinned record, state from core movingState at now', () => {
    const now = 1_700_000_000_000;
    const row = {
      uid: 'M1',
      username: 'ana',
      name: 'Ana',
      ts: now - 1000,
      lat: 46,
      lng: 14,
      acc: 5,
      spd: 3,
      dir: 90,
      bat: 80,
      anchorTs: null,
      anchorLat: null,
      anchorLng: null,
      trackingStatus: true,
    };
    expect(toPositionRecord(row, now)).toEqual({
      member: { uid: 'M1', username: 'ana', name: 'Ana' },
      lat: 46,
      lng: 14,
      ts: now - 1000,
      acc: 5,
      spd: 3,
      dir: 90,
      bat: 80,
      state: 'moving',
    });
    expect(toPositionRecord({ ...row, spd: 0 }, now).state).toBe('halted');
    expect(toPositionRecord({ ...row, spd: 0 }, now + 3_600_000).state).toBe('stale');
    expect(toPositionRecord({ ...row, trackingStatus: false }, now).state).toBe('off');
  });
});
