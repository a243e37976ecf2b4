import { LocateRow, teamNames, toLocationRecord } from './location-view';

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
    // no member_locations row's device columns: as the snapshot holds a member never reported
    connection_type: null,
    android_id: null,
    loc_gps_on: null,
    loc_net_on: null,
    tracking_status: null,
    signal_ts: null,
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

