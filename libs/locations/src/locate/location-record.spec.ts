import { decodeLocateRow, LocateRawRow, LocateRow, teamNames, toLocationRecord } from './location-record';

describe('toLocationRecord', () => {
  const names = teamNames([
    { id: 1, name: 'North' },
    { id: 2, name: 'South' },
  ]);
  const row: LocateRow = {
    uid: 'M1',
    usr: 'ana@example.test',
    name: 'Ana',
    email: 'ana@example.test',
    phone: '+386 40 000 000',
    role: 'worker',
    teams: [2, 7],
    ts: 1_795_000_000_000,
    lat: 46.05,
    lng: 14.5,
    acc: 5,
    dir: 90,
    spd: 1.5,
    elv: 300,
    bat: 77,
  };

  it('the spec’s fields in its order; teams named from teams_config ("" for a team it lacks)', () => {
    const record = toLocationRecord(row, names, false);
    expect(Object.keys(record)).toEqual([
      'uid',
      'usr',
      'name',
      'email',
      'phone',
      'teams',
      'lat',
      'lng',
      'ts',
      'acc',
      'dir',
      'spd',
      'elv',
      'bat',
    ]);
    expect(record).toMatchObject({ uid: 'M1', usr: 'ana@example.test', lat: 46.05, lng: 14.5, ts: 1_795_000_000_000, acc: 5, bat: 77 });
    expect(record.teams).toEqual([
      { name: 'South', number: 2 },
      { name: '', number: 7 },
    ]);
  });

  it('never located (no row, or a row without a fix): lat/lng null, ts 0, fix values null', () => {
    const never = { ...row, ts: null, lat: null, lng: null, acc: 9, dir: null, spd: null, elv: null, bat: 50 };
    expect(toLocationRecord(never, names, false)).toMatchObject({ lat: null, lng: null, ts: 0, acc: null, bat: null });
  });

  it('withDetails adds the device fields; unreported ones are null, tracking false, signal_ts 0', () => {
    expect(toLocationRecord(row, names, true)).toMatchObject({
      connection_type: null,
      android_id: null,
      loc_gps_on: null,
      loc_net_on: null,
      tracking_status: false,
      signal_ts: 0,
    });
    const detailed = {
      ...row,
      connection_type: 1,
      android_id: 'abc',
      loc_gps_on: true,
      loc_net_on: true,
      tracking_status: true,
      signal_ts: 5,
    };
    expect(toLocationRecord(detailed, names, true)).toMatchObject({
      connection_type: 1,
      android_id: 'abc',
      loc_gps_on: true,
      loc_net_on: true,
      tracking_status: true,
      signal_ts: 5,
    });
  });
});

describe('decodeLocateRow', () => {
  const raw: LocateRawRow = {
    uid: 'M1',
    usr: 'ana@example.test',
    name: 'Ana, "A"',
    email: '',
    phone: '',
    role: 'worker',
    teams: '[2, 7]',
    loc: '1795000000000,46.05,-14.5,5,90,1.5,-3,77',
  };

  it('the fix’s numbers from the one text column, in order; strings untouched', () => {
    expect(decodeLocateRow(raw, new Map())).toEqual({
      uid: 'M1',
      usr: 'ana@example.test',
      name: 'Ana, "A"',
      email: '',
      phone: '',
      role: 'worker',
      teams: [2, 7],
      ts: 1_795_000_000_000,
      lat: 46.05,
      lng: -14.5,
      acc: 5,
      dir: 90,
      spd: 1.5,
      elv: -3,
      bat: 77,
    });
  });

  it('empty optional fields are null; loc null (never located) → ts/lat/lng and the rest null', () => {
    expect(decodeLocateRow({ ...raw, loc: '1,2.5,3.5,,,0,,' }, new Map())).toMatchObject({
      ts: 1,
      lat: 2.5,
      lng: 3.5,
      acc: null,
      dir: null,
      spd: 0,
      elv: null,
      bat: null,
    });
    expect(decodeLocateRow({ ...raw, loc: null }, new Map())).toMatchObject({
      ts: null,
      lat: null,
      lng: null,
      acc: null,
      dir: null,
      spd: null,
      elv: null,
      bat: null,
    });
  });

  it('shortest-form doubles come back exactly (as float8 prints them)', () => {
    const lat = 0.1 + 0.2;
    const lng = -179.99999999999997;
    const spd = 1e-7;
    expect(decodeLocateRow({ ...raw, loc: `1,${lat},${lng},,,1e-07,,` }, new Map())).toMatchObject({ lat, lng, spd });
  });

  it('each distinct teams text is parsed once per call', () => {
    const cache = new Map<string, number[]>();
    const a = decodeLocateRow(raw, cache);
    const b = decodeLocateRow({ ...raw, uid: 'M2' }, cache);
    expect(b.teams).toBe(a.teams);
    expect(decodeLocateRow({ ...raw, teams: '[]' }, cache).teams).toEqual([]);
    expect(cache.size).toBe(2);
  });

  it('device columns pass through when selected (withDetails), absent otherwise', () => {
    expect(decodeLocateRow(raw, new Map())).not.toHaveProperty('tracking_status');
    const detailed = {
      ...raw,
      connection_type: 1,
      android_id: 'x',
      loc_gps_on: true,
      loc_net_on: null,
      tracking_status: true,
      signal_ts: 5,
    };
    expect(decodeLocateRow(detailed, new Map())).toMatchObject({
      connection_type: 1,
      android_id: 'x',
      loc_gps_on: true,
      loc_net_on: null,
      tracking_status: true,
      signal_ts: 5,
    });
  });
});
