import { CompanySnapshot, SnapshotRow, xidNotOlder } from './company-snapshot';

const row = (uid: string, over: Partial<SnapshotRow> = {}): SnapshotRow => ({
  uid,
  usr: `${uid.toLowerCase()}@example.test`,
  name: `Member ${uid}`,
  email: '',
  phone: '',
  role: 'worker',
  teams: [1],
  active: true,
  created: 1000,
  has_location: true,
  ts: 1_700_000_000_000,
  lat: 46.05,
  lng: 14.5,
  acc: 5,
  dir: null,
  spd: 0.5,
  elv: null,
  bat: 80,
  connection_type: null,
  android_id: null,
  loc_gps_on: null,
  loc_net_on: null,
  tracking_status: true,
  signal_ts: 0,
  mx: '100',
  lx: null,
  ...over,
});

const TEAMS = JSON.stringify([{ id: 1, name: 'North' }]);

function filled(rows: SnapshotRow[]): CompanySnapshot {
  const s = new CompanySnapshot('100', 0);
  s.apply(rows, '100');
  s.setTeams(TEAMS);
  s.countsRead({ members: rows.length, locations: rows.filter((r) => r.has_location).length });
  return s;
}

describe('CompanySnapshot', () => {
  it('orders members by creation time, then uid', () => {
    const s = filled([row('C', { created: 2 }), row('B', { created: 1 }), row('A', { created: 2 })]);
    expect(s.ordered.map((m) => m.row.uid)).toEqual(['B', 'A', 'C']);
  });

  it('applies a changed row in place (same order), and a moved creation time re-sorts', () => {
    const s = filled([row('A', { created: 1 }), row('B', { created: 2 })]);
    s.apply([row('A', { created: 1, lat: 47 })], '101');
    expect(s.ordered.map((m) => [m.row.uid, m.row.lat])).toEqual([
      ['A', 47],
      ['B', 46.05],
    ]);
    expect(s.horizon).toBe('101');
    s.apply([row('A', { created: 3 })], '102');
    expect(s.ordered.map((m) => m.row.uid)).toEqual(['B', 'A']);
  });

  it('adds a new member in its place', () => {
    const s = filled([row('A', { created: 1 }), row('C', { created: 3 })]);
    s.apply([row('B', { created: 2 })], '101');
    expect(s.ordered.map((m) => m.row.uid)).toEqual(['A', 'B', 'C']);
    expect(s.size).toBe(3);
  });

  it('follows a renamed username, also when two members swap theirs', () => {
    const s = filled([row('A', { usr: 'x' }), row('B', { usr: 'y' })]);
    s.apply([row('A', { usr: 'Y' }), row('B', { usr: 'x' })], '101');
    expect(s.byUsername.get('y')?.row.uid).toBe('A');
    expect(s.byUsername.get('x')?.row.uid).toBe('B');
    s.apply([row('A', { usr: 'z' })], '102');
    expect(s.byUsername.has('y')).toBe(false);
    expect(s.byUsername.get('z')?.row.uid).toBe('A');
  });

  it('renders a record JSON once per change, and again when team names change', () => {
    const s = filled([row('A')]);
    const a = s.byId.get('A')!;
    const first = s.json(a);
    expect(JSON.parse(first)).toEqual(s.record(a, false));
    expect(JSON.parse(first).teams).toEqual([{ name: 'North', number: 1 }]);
    expect(s.json(a)).toBe(first);
    s.setTeams(JSON.stringify([{ id: 1, name: 'South' }]));
    expect(JSON.parse(s.json(a)).teams).toEqual([{ name: 'South', number: 1 }]);
    s.apply([row('A', { lat: 45 })], '101');
    expect(JSON.parse(s.json(s.byId.get('A')!)).lat).toBe(45);
  });

  it('answers a member without a fix as never located', () => {
    const s = filled([row('A', { has_location: false, ts: null, lat: null, lng: null, acc: null, spd: null, bat: null })]);
    expect(JSON.parse(s.json(s.byId.get('A')!))).toMatchObject({ lat: null, lng: null, ts: 0, acc: null });
  });

  it('matches the database counts only while nothing was deleted behind it', () => {
    const s = filled([row('A'), row('B', { has_location: false })]);
    expect(s.matches({ members: 2, locations: 1 })).toBe(true);
    expect(s.matches({ members: 1, locations: 1 })).toBe(false);
    expect(s.matches({ members: 2, locations: 0 })).toBe(false);
    s.apply([row('B')], '101');
    expect(s.locationRows).toBe(2);
    expect(s.matches({ members: 2, locations: 2 })).toBe(true);
  });

  it('keeps counting location rows of no member as the whole read found them', () => {
    const s = new CompanySnapshot('100', 0);
    s.apply([row('A')], '100');
    s.countsRead({ members: 1, locations: 3 });
    expect(s.matches({ members: 1, locations: 3 })).toBe(true);
    expect(s.matches({ members: 1, locations: 2 })).toBe(false);
  });
});

describe('xid comparison and the held versions a refresh leaves out', () => {
  it('compares 32-bit xids as age() does, across wraparound; special xids are older than any', () => {
    expect(xidNotOlder(100, 100)).toBe(true);
    expect(xidNotOlder(101, 100)).toBe(true);
    expect(xidNotOlder(99, 100)).toBe(false);
    expect(xidNotOlder(5, 4294967290)).toBe(true); // past the wrap: newer
    expect(xidNotOlder(4294967290, 5)).toBe(false);
    expect(xidNotOlder(2, 1)).toBe(false); // frozen
  });

  it('lists the members whose members or location row version is not older than the horizon', () => {
    const s = new CompanySnapshot('1000', 0);
    s.apply([row('A', { mx: '900', lx: '950' }), row('B', { mx: '1000', lx: null }), row('C', { mx: '800', lx: '1200' }), row('D', { mx: '2', lx: null })], '1000');
    expect(s.recentVersions('1000')).toEqual({ ids: ['B', 'C'], mx: ['1000', '800'], lx: ['', '1200'] });
    expect(s.recentVersions('1201').ids).toEqual([]);
  });
});
