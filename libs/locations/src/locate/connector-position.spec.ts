import { toPositionRecord } from '@app/live/pure';
import { ConnectorLocationsQueryDto } from '../dto/connector-locations.dto';
import { LatestPositionRow, locateQueryOf, matchesPositionFilter, toConnectorPosition } from './connector-position';

const NOW = 1_800_000_000_000;
const member = { uid: 'M1', usr: 'Ana@X.test', name: 'Ana', teams: [{ name: 'North', number: 2 }] };
const row = (over: Partial<LatestPositionRow> = {}): LatestPositionRow => ({
  memberId: 'M1',
  ts: NOW - 30_000,
  lat: 46.05,
  lng: 14.5,
  acc: 8,
  spd: 3.5,
  dir: 90,
  bat: 70,
  anchorTs: null,
  anchorLat: null,
  anchorLng: null,
  trackingStatus: true,
  ...over,
});

describe('toConnectorPosition', () => {
  it('renames the fix’s fields and takes state from the live stream’s position record', () => {
    expect(toConnectorPosition(member, row(), NOW)).toEqual({
      member: { id: 'M1', username: 'Ana@X.test', name: 'Ana' },
      lat: 46.05,
      lng: 14.5,
      ts: NOW - 30_000,
      accuracy: 8,
      speed: 3.5,
      heading: 90,
      battery: 70,
      state: 'moving',
      trackingOn: true,
    });
  });

  it('state is the live stream’s for every moving state: halted, stale, off', () => {
    const cases: Array<[Partial<LatestPositionRow>, string]> = [
      [{ spd: 0 }, 'halted'],
      [{ spd: null }, 'halted'],
      [{ ts: NOW - 11 * 60_000 }, 'stale'],
      [{ trackingStatus: false }, 'off'],
      [{ spd: 0, anchorTs: NOW - 30_000 - 3 * 60_000, anchorLat: 46.05, anchorLng: 14.51 }, 'moving'],
    ];
    for (const [over, state] of cases) {
      const r = row(over);
      const live = toPositionRecord({ ...r, uid: 'M1', username: 'a', name: 'a', ts: r.ts!, lat: r.lat!, lng: r.lng! }, NOW);
      expect({ over, state: toConnectorPosition(member, r, NOW).state }).toEqual({ over, state });
      expect(live.state).toBe(state);
    }
  });

  it('a member never located (no row, or a row without a fix) has null position fields and state off', () => {
    const never = {
      member: { id: 'M1', username: 'Ana@X.test', name: 'Ana' },
      lat: null,
      lng: null,
      ts: null,
      accuracy: null,
      speed: null,
      heading: null,
      battery: null,
      state: 'off',
      trackingOn: false,
    };
    expect(toConnectorPosition(member, undefined, NOW)).toEqual(never);
    expect(toConnectorPosition(member, row({ ts: null, lat: null, lng: null, trackingStatus: true }), NOW)).toEqual({
      ...never,
      trackingOn: true,
    });
  });

  it('keeps unknown optional values null', () => {
    expect(toConnectorPosition(member, row({ acc: null, dir: null, bat: null, spd: null }), NOW)).toMatchObject({
      accuracy: null,
      heading: null,
      battery: null,
      speed: null,
    });
  });
});

describe('selecting members for /v1/locations', () => {
  it('asks locate for the one member named, else the team, else everyone', () => {
    expect(locateQueryOf({ memberId: 'M1', team: 2 })).toMatchObject({
      accounts: ['M1'],
      teams: undefined,
      ping: false,
      withAddress: false,
    });
    expect(locateQueryOf({ username: 'ana@x.test' })).toMatchObject({ accounts: ['ana@x.test'], teams: undefined });
    expect(locateQueryOf({ team: 2 })).toMatchObject({ accounts: [], teams: [2] });
    expect(locateQueryOf({})).toMatchObject({ accounts: [], teams: 'all' });
  });

  it('every filter narrows: uid exactly, username case-insensitively, team membership', () => {
    expect(matchesPositionFilter(member, {})).toBe(true);
    expect(matchesPositionFilter(member, { memberId: 'M1', team: 2 })).toBe(true);
    expect(matchesPositionFilter(member, { memberId: 'M1', team: 3 })).toBe(false);
    expect(matchesPositionFilter(member, { memberId: 'Ana@X.test' })).toBe(false); // locate matches usernames too
    expect(matchesPositionFilter(member, { username: 'ana@x.TEST' })).toBe(true);
    expect(matchesPositionFilter(member, { username: 'M1' })).toBe(false);
  });

  it('refuses memberId with username', () => {
    const q = Object.assign(new ConnectorLocationsQueryDto(), { memberId: 'M1', username: 'ana' });
    expect(() => q.completeValidation('query')).toThrow('query.username: send memberId or username, not both');
    expect(() => Object.assign(new ConnectorLocationsQueryDto(), { memberId: 'M1', team: 2 }).completeValidation('query')).not.toThrow();
  });
});
