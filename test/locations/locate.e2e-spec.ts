import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * `locate` (spec "Locate: POST /api/locate", CONTRACTS.md "Locations, devices, tracks") and
 * getaccounts' `location`/`states`, against the real api, PostgreSQL/PostGIS and a Nominatim-compatible
 * reverse geocoder on loopback. Latest fixes are written into `member_locations` by SQL at chosen times.
 */

const TEAMS = [
  { id: 1, name: 'North' },
  { id: 2, name: 'South' },
  { id: 3, name: 'East' },
];
const MIN = 60_000;

/** Positions the fake geocoder knows (by `lat` with 4 decimals) → display_name; any other: Nominatim's error answer. */
const GEOCODED: Record<string, string> = { '45.5000': 'Ulica 1, 1000 Ljubljana, Slovenia' };

interface Geocoder {
  server: Server;
  url: string;
  requests: string[];
}

/** A tiny Nominatim-compatible `/reverse` (jsonv2) on loopback, recording the query strings it gets. */
async function startGeocoder(): Promise<Geocoder> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.search);
    if (url.pathname !== '/reverse') return void res.writeHead(404).end();
    const name = GEOCODED[Number(url.searchParams.get('lat')).toFixed(4)];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        name ? { display_name: name, lat: url.searchParams.get('lat'), lon: url.searchParams.get('lon') } : { error: 'Unable to geocode' },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

interface Member {
  uid: string;
  username: string;
  key: string;
}

describe('locate', () => {
  let api: TestApi;
  let db: DataSource;
  let geocoder: Geocoder;
  let company: TestCompany;
  let w1: Member; // teams [1]
  let w2: Member; // teams [2]
  let w3: Member; // teams [1, 2]
  let op: Member; // operator, no team
  let gone: Member; // teams [1], deactivated
  let other: TestCompany;
  let stranger: Member; // other company, teams [1]

  beforeAll(async () => {
    geocoder = await startGeocoder();
    // read once by the api's config when it boots below (each test file has its own module registry)
    process.env.GEOCODER_URL = geocoder.url;
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
    expect((await action(api, 'editcompany', { teams_config: TEAMS, default_radius: 100 }, { key: company.key })).body.status).toBe(0);
    w1 = await createMember(api, company, { teams: [1], name: 'Wanda One' });
    w2 = await createMember(api, company, { teams: [2], name: 'Walt Two' });
    w3 = await createMember(api, company, { teams: [1, 2], name: 'Wes Three' });
    op = await createMember(api, company, { role: 'operator', name: 'Olga Operator' });
    gone = await createMember(api, company, { teams: [1], name: 'Gone Member' });
    expect((await action(api, 'deleteaccount', { uid: gone.uid }, { key: company.key })).body.status).toBe(0);
    other = await createCompany(api);
    expect((await action(api, 'editcompany', { teams_config: TEAMS }, { key: other.key })).body.status).toBe(0);
    stranger = await createMember(api, other, { teams: [1] });
  });
  afterAll(async () => {
    await api.close();
    await new Promise((resolve) => geocoder.server.close(resolve));
    delete process.env.GEOCODER_URL;
  });

  /** Writes a member's latest location row as ingestion would (the fields given; the rest null / defaults). */
  async function setLatest(
    companyId: string,
    memberId: string,
    fix: Partial<{
      ts: number;
      lat: number;
      lng: number;
      acc: number;
      dir: number;
      spd: number;
      elv: number;
      bat: number;
      anchor: { ts: number; lat: number; lng: number };
      tracking: boolean;
      connection_type: number;
      android_id: string;
      loc_gps_on: boolean;
      loc_net_on: boolean;
      signal_ts: number;
    }>,
  ): Promise<void> {
    await db.query(`DELETE FROM member_locations WHERE company_id = $1 AND member_id = $2`, [companyId, memberId]);
    await db.query(
      `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, anchor_ts, anchor_lat, anchor_lng,
         tracking_status, connection_type, android_id, loc_gps_on, loc_net_on, signal_ts, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
      [
        companyId,
        memberId,
        fix.ts ?? null,
        fix.lat ?? null,
        fix.lng ?? null,
        fix.acc ?? null,
        fix.dir ?? null,
        fix.spd ?? null,
        fix.elv ?? null,
        fix.bat ?? null,
        fix.anchor?.ts ?? null,
        fix.anchor?.lat ?? null,
        fix.anchor?.lng ?? null,
        fix.tracking ?? true,
        fix.connection_type ?? null,
        fix.android_id ?? null,
        fix.loc_gps_on ?? null,
        fix.loc_net_on ?? null,
        fix.signal_ts ?? 0,
        Date.now(),
      ],
    );
  }

  const clearLatest = () => db.query(`DELETE FROM member_locations WHERE company_id = $1`, [company.companyUid]);

  async function locate(data: unknown, key = company.key): Promise<any[]> {
    const res = await action<any>(api, 'locate', data, { key });
    expect(res.body).toMatchObject({ status: 0 });
    expect(res.http).toBe(200);
    return res.body.accounts;
  }
  const uidsOf = (records: any[]) => records.map((r) => r.uid);
  const sorted = (...members: Array<{ uid: string } | string>) => members.map((m) => (typeof m === 'string' ? m : m.uid)).sort();

  describe('selection (the spec’s table)', () => {
    it('accounts keyed by uid or by username (case-insensitive), values {}', async () => {
      expect(uidsOf(await locate({ accounts: { [w1.uid]: {} } }))).toEqual([w1.uid]);
      expect(uidsOf(await locate({ accounts: { [w2.username.toUpperCase()]: {} } }))).toEqual([w2.uid]);
      expect(uidsOf(await locate({ accounts: { [w1.uid]: {}, [w2.username]: {} } })).sort()).toEqual(sorted(w1, w2));
    });

    it('teams array: the members of those teams; a member in two of them once', async () => {
      expect(uidsOf(await locate({ teams: [1] })).sort()).toEqual(sorted(w1, w3));
      expect(uidsOf(await locate({ teams: [1, 2] })).sort()).toEqual(sorted(w1, w2, w3));
      expect(await locate({ teams: [3] })).toEqual([]);
      expect(await locate({ teams: [99] })).toEqual([]);
    });

    it('empty teams array: no team-selected members (accounts still count)', async () => {
      expect(await locate({ teams: [] })).toEqual([]);
      expect(uidsOf(await locate({ teams: [], accounts: { [w2.uid]: {} } }))).toEqual([w2.uid]);
    });

    it('teams omitted: only the accounts members; nothing at all selects nothing', async () => {
      expect(uidsOf(await locate({ accounts: { [w3.uid]: {} } }))).toEqual([w3.uid]);
      expect(await locate({})).toEqual([]);
      expect(await locate({ accounts: {} })).toEqual([]);
    });

    it('teams as any non-array value (true, false, null, a number, a string, an object): every active member', async () => {
      const everyone = sorted(company.ownerUid, w1, w2, w3, op);
      for (const teams of [true, false, null, 1, 'all', {}]) {
        expect(uidsOf(await locate({ teams })).sort()).toEqual(everyone);
      }
    });

    it('union of accounts and teams, each member once, in creation order', async () => {
      expect(uidsOf(await locate({ accounts: { [w2.uid]: {}, [w1.username]: {} }, teams: [1] }))).toEqual([w1.uid, w2.uid, w3.uid]);
      expect(uidsOf(await locate({ accounts: { [w1.uid]: {}, [w1.username]: {} }, teams: true }))).toEqual([
        company.ownerUid,
        w1.uid,
        w2.uid,
        w3.uid,
        op.uid,
      ]);
    });

    it('deactivated members never appear: not by uid, not by username, not by team, not with teams: true', async () => {
      expect(await locate({ accounts: { [gone.uid]: {}, [gone.username]: {} } })).toEqual([]);
      expect(uidsOf(await locate({ teams: [1] }))).not.toContain(gone.uid);
      expect(uidsOf(await locate({ teams: true }))).not.toContain(gone.uid);
    });

    it('unknown keys and other companies’ members select nothing (tenant isolation)', async () => {
      expect(
        await locate({ accounts: { NOSUCHMEMBER: {}, 'nobody@example.test': {}, [stranger.uid]: {}, [stranger.username]: {} } }),
      ).toEqual([]);
      expect(uidsOf(await locate({ teams: [1] }))).not.toContain(stranger.uid);
      // and the other company sees none of ours, even naming them
      const theirs = await locate({ teams: true, accounts: { [w1.uid]: {}, [w2.username]: {} } }, other.key);
      expect(uidsOf(theirs).sort()).toEqual(sorted(other.ownerUid, stranger));
    });
  });

  describe('permissions (as getaccounts)', () => {
    it('a worker gets itself and its team-mates only', async () => {
      expect(uidsOf(await locate({ teams: true }, w1.key)).sort()).toEqual(sorted(w1, w3));
      expect(uidsOf(await locate({ teams: true }, w2.key)).sort()).toEqual(sorted(w2, w3));
      expect(await locate({ accounts: { [w2.uid]: {}, [company.ownerUid]: {} } }, w1.key)).toEqual([]);
      expect(uidsOf(await locate({ teams: [2] }, w1.key))).toEqual([w3.uid]);
    });

    it('an operator and an administrator get everyone', async () => {
      const everyone = sorted(company.ownerUid, w1, w2, w3, op);
      expect(uidsOf(await locate({ teams: true }, op.key)).sort()).toEqual(everyone);
      expect(uidsOf(await locate({ teams: true }, company.key)).sort()).toEqual(everyone);
    });
  });

  describe('records', () => {
    beforeEach(clearLatest);

    it('a located member: every field of the Location record, teams named from teams_config', async () => {
      const ts = Date.now() - 30_000;
      await setLatest(company.companyUid, w3.uid, { ts, lat: 46.0569, lng: 14.5058, acc: 12, dir: 270, spd: 3.5, elv: 295, bat: 81 });
      const [record] = await locate({ accounts: { [w3.uid]: {} } });
      expect(record).toEqual({
        uid: w3.uid,
        usr: w3.username,
        name: 'Wes Three',
        email: '',
        phone: '',
        teams: [
          { name: 'North', number: 1 },
          { name: 'South', number: 2 },
        ],
        lat: 46.0569,
        lng: 14.5058,
        ts,
        acc: 12,
        dir: 270,
        spd: 3.5,
        elv: 295,
        bat: 81,
      });
    });

    it('a member never located: lat/lng null, ts 0 (also with a row holding no fix yet)', async () => {
      const never = { lat: null, lng: null, ts: 0, acc: null, dir: null, spd: null, elv: null, bat: null };
      expect((await locate({ accounts: { [w1.uid]: {} } }))[0]).toMatchObject({
        uid: w1.uid,
        ...never,
        teams: [{ name: 'North', number: 1 }],
      });
      await setLatest(company.companyUid, w1.uid, { tracking: true });
      expect((await locate({ accounts: { [w1.uid]: {} } }))[0]).toMatchObject(never);
    });

    it('optional fix values the device never sent are null', async () => {
      const ts = Date.now();
      await setLatest(company.companyUid, w2.uid, { ts, lat: 1.5, lng: 2.5 });
      expect((await locate({ accounts: { [w2.uid]: {} } }))[0]).toMatchObject({
        lat: 1.5,
        lng: 2.5,
        ts,
        acc: null,
        dir: null,
        spd: null,
        elv: null,
        bat: null,
      });
    });

    it('every stored double comes back exactly (the fix travels as one text column): awkward values, negatives, zeros', async () => {
      // float8's text output is the shortest exact form; Number() of it must be the stored double
      const ts = Date.now() - 1;
      const cases = [
        { lat: 0.1 + 0.2, lng: -179.99999999999997, spd: 1e-7 },
        { lat: -0, lng: 0, spd: 123456.789012345 },
        { lat: -89.99999999999999, lng: 5e-324, spd: 0.30000000000000004 },
      ];
      for (const c of cases) {
        await setLatest(company.companyUid, w2.uid, { ts, lat: c.lat, lng: c.lng, spd: c.spd, acc: -0, elv: -12 });
        const [record] = await locate({ accounts: { [w2.uid]: {} } });
        expect(record).toMatchObject({ lat: c.lat === 0 ? 0 : c.lat, lng: c.lng, ts, spd: c.spd, acc: 0, elv: -12, dir: null, bat: null });
      }
    });

    it('the plain call answers what withDetails answers minus the device details, for staff and for a worker', async () => {
      const odd = await createMember(api, company, { teams: [2, 1], name: 'Zoë "Quote" \\ O’Brien\t<tab>' });
      // a team since removed from teams_config (its name answers "")
      await db.query(`UPDATE members SET teams = '[2, 9, 1]' WHERE company_id = $1 AND id = $2`, [company.companyUid, odd.uid]);
      const now = Date.now();
      await setLatest(company.companyUid, w1.uid, {
        ts: now - 1,
        lat: -33.868820000000014,
        lng: 151.20929,
        acc: 0,
        dir: 359,
        spd: 0.1 + 0.2,
        elv: -12,
        bat: 100,
      });
      await setLatest(company.companyUid, w3.uid, { ts: now, lat: 1e-7, lng: -179.99999 });
      await setLatest(company.companyUid, odd.uid, { tracking: true });
      const detail = ['connection_type', 'android_id', 'loc_gps_on', 'loc_net_on', 'tracking_status', 'signal_ts'];
      const withoutDetails = (records: any[]) =>
        records.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !detail.includes(k))));
      for (const key of [company.key, w1.key, op.key]) {
        for (const selection of [
          { teams: true },
          { teams: [2] },
          { accounts: { [odd.username.toUpperCase()]: {}, [w1.uid]: {} }, teams: [] },
        ]) {
          const plain = await locate(selection, key);
          expect(plain).toEqual(withoutDetails(await locate({ ...selection, withDetails: true }, key)));
        }
      }
      expect((await locate({ accounts: { [odd.uid]: {} } }))[0]).toMatchObject({
        name: 'Zoë "Quote" \\ O’Brien\t<tab>',
        teams: [
          { name: 'South', number: 2 },
          { name: '', number: 9 },
          { name: 'North', number: 1 },
        ],
      });
      expect((await action(api, 'deleteaccount', { uid: odd.uid }, { key: company.key })).body.status).toBe(0);
    });

    it('withDetails adds the device fields; without it they are absent', async () => {
      await setLatest(company.companyUid, w1.uid, {
        ts: Date.now(),
        lat: 46,
        lng: 14,
        tracking: true,
        connection_type: 2,
        android_id: 'a1b2c3d4e5f6',
        loc_gps_on: true,
        loc_net_on: false,
        signal_ts: 1_795_000_000_000,
      });
      const [plain] = await locate({ accounts: { [w1.uid]: {} } });
      for (const field of ['connection_type', 'android_id', 'loc_gps_on', 'loc_net_on', 'tracking_status', 'signal_ts', 'address'])
        expect(plain).not.toHaveProperty(field);
      const [detailed] = await locate({ accounts: { [w1.uid]: {} }, withDetails: true });
      expect(detailed).toMatchObject({
        connection_type: 2,
        android_id: 'a1b2c3d4e5f6',
        loc_gps_on: true,
        loc_net_on: false,
        tracking_status: true,
        signal_ts: 1_795_000_000_000,
      });
      // never reported: nulls, tracking off, never signalled
      const [bare] = await locate({ accounts: { [w2.uid]: {} }, withDetails: true });
      expect(bare).toMatchObject({
        connection_type: null,
        android_id: null,
        loc_gps_on: null,
        loc_net_on: null,
        tracking_status: false,
        signal_ts: 0,
      });
    });
  });

  describe('withAddress', () => {
    const place = async (companyId: string, name: string, lat: number, lng: number, radius: number, deleted = false) => {
      await db.query(
        `INSERT INTO places (id, company_id, name, radius, location, created_at, deleted_at)
         VALUES ($1, $2, $3, $4, ST_SetSRID(ST_MakePoint($6, $5), 4326)::geography, $7, $8)`,
        [newId(), companyId, name, radius, lat, lng, Date.now(), deleted ? Date.now() : null],
      );
    };
    /** A point `m` metres north of (lat, lng) (1° of latitude ≈ 111,200 m here; the radii below leave margin). */
    const north = (lat: number, m: number) => lat + m / 111_200;

    beforeAll(async () => {
      // around 40.0, 10.0: a big yard (r 500) and, inside it, a small office (r 50) — nearest wins
      await place(company.companyUid, 'Yard', 40, 10, 500);
      await place(company.companyUid, 'Office', north(40, 300), 10, 50);
      // radius 0 → the company's default_radius (100 m)
      await place(company.companyUid, 'Depot', 41, 10, 0);
      // a deleted place and another company's place never answer
      await place(company.companyUid, 'Old site', 42, 10, 500, true);
      await place(other.companyUid, 'Their site', 43, 10, 500);
    });
    beforeEach(clearLatest);

    const addressAt = async (lat: number, lng: number, key = company.key) => {
      await setLatest(company.companyUid, w1.uid, { ts: Date.now(), lat, lng });
      const [record] = await locate({ accounts: { [w1.uid]: {} }, withAddress: true }, key);
      return record.address;
    };

    it('the nearest live place whose radius covers the fix', async () => {
      expect(await addressAt(40, 10)).toBe('Yard');
      expect(await addressAt(north(40, 290), 10)).toBe('Office');
      expect(await addressAt(north(40, 380), 10)).toBe('Yard'); // 80 m from the office: outside its 50 m
      expect(await addressAt(north(40, 450), 10)).toBe('Yard');
    });

    it('radius 0 uses the company default_radius', async () => {
      expect(await addressAt(north(41, 90), 10)).toBe('Depot');
      expect(await addressAt(north(41, 115), 10)).toBe(''); // outside 100 m, and the geocoder has nothing there
    });

    it('no place: the reverse geocoder’s address; nothing there either: ""', async () => {
      const before = geocoder.requests.length;
      expect(await addressAt(45.5, 14.1)).toBe('Ulica 1, 1000 Ljubljana, Slovenia');
      const query = new URLSearchParams(geocoder.requests[before]);
      expect({ lat: query.get('lat'), lon: query.get('lon'), format: query.get('format') }).toEqual({
        lat: '45.5',
        lon: '14.1',
        format: 'jsonv2',
      });
      expect(await addressAt(44, 10)).toBe('');
    });

    it('deleted places and other companies’ places are not used', async () => {
      expect(await addressAt(42, 10)).toBe('');
      expect(await addressAt(43, 10)).toBe('');
    });

    it('a place answers without asking the geocoder; many members in one call; never located → ""', async () => {
      await setLatest(company.companyUid, w1.uid, { ts: Date.now(), lat: 40, lng: 10 });
      await setLatest(company.companyUid, w2.uid, { ts: Date.now(), lat: north(41, 10), lng: 10 });
      await setLatest(company.companyUid, w3.uid, { ts: Date.now(), lat: 45.5, lng: 14.1 });
      const before = geocoder.requests.length;
      const records = await locate({ teams: true, withAddress: true });
      const byUid = new Map(records.map((r) => [r.uid, r.address]));
      expect(Object.fromEntries(byUid)).toEqual({
        [company.ownerUid]: '',
        [w1.uid]: 'Yard',
        [w2.uid]: 'Depot',
        [w3.uid]: 'Ulica 1, 1000 Ljubljana, Slovenia',
        [op.uid]: '',
      });
      expect(geocoder.requests.length - before).toBe(1);
    });
  });

  describe('signal: "ping"', () => {
    beforeEach(clearLatest);
    const pings = async () =>
      Object.fromEntries(
        (
          await db.query(`SELECT member_id, ping_requested_at::float8 AS at FROM member_locations WHERE company_id = $1`, [
            company.companyUid,
          ])
        ).map((r: { member_id: string; at: number | null }) => [r.member_id, r.at]),
      );

    it('records a pending ping on each selected member’s row, inserting the row when missing; others untouched', async () => {
      await setLatest(company.companyUid, w1.uid, { ts: Date.now() - 5 * MIN, lat: 46, lng: 14 });
      await setLatest(company.companyUid, w2.uid, { ts: Date.now() - 5 * MIN, lat: 46, lng: 14 });
      const t0 = Date.now();
      const records = await locate({ teams: [1], signal: 'ping' });
      const t1 = Date.now();
      expect(uidsOf(records).sort()).toEqual(sorted(w1, w3));
      const after = await pings();
      expect(after[w1.uid]).toBeGreaterThanOrEqual(t0);
      expect(after[w1.uid]).toBeLessThanOrEqual(t1);
      expect(after[w3.uid]).toBeGreaterThanOrEqual(t0); // row inserted
      expect(after[w2.uid]).toBeNull(); // not selected
      // the fix of w1 is untouched, and w3 is still never located
      const [w3Record] = await locate({ accounts: { [w3.uid]: {} } });
      expect(w3Record).toMatchObject({ lat: null, lng: null, ts: 0 });
    });

    it('a worker pings only whom it may see', async () => {
      await locate({ teams: true, signal: 'ping' }, w2.key);
      expect(Object.keys(await pings()).sort()).toEqual(sorted(w2, w3));
    });

    it('without signal nothing is recorded', async () => {
      await locate({ teams: true });
      expect(await pings()).toEqual({});
    });
  });

  describe('with ingestion (pushlocations)', () => {
    beforeEach(clearLatest);
    const push = (key: string, data: Record<string, unknown>) => action<any>(api, 'pushlocations', data, { key });

    it('ping round trip: locate asks, the next pushlocations answers ping: true once, signal_ts is set', async () => {
      expect((await push(w2.key, { locations: [{ ts: Date.now() - MIN, lat: 46, lng: 14 }], tracking: true })).body.ping).toBe(false);
      await locate({ accounts: { [w2.uid]: {} }, signal: 'ping' });
      const t0 = Date.now();
      const delivered = await push(w2.key, { locations: [{ ts: Date.now(), lat: 46.001, lng: 14 }] });
      const t1 = Date.now();
      expect(delivered.body).toMatchObject({ status: 0, accepted: 1, ping: true });
      expect((await push(w2.key, { locations: [] })).body.ping).toBe(false);
      const [record] = await locate({ accounts: { [w2.uid]: {} }, withDetails: true });
      expect(record.signal_ts).toBeGreaterThanOrEqual(t0);
      expect(record.signal_ts).toBeLessThanOrEqual(t1);
      expect(record.lat).toBe(46.001);
    });

    it('a pinged member never located gets ping: true with its first call', async () => {
      await locate({ accounts: { [w3.uid]: {} }, signal: 'ping' });
      expect((await push(w3.key, { locations: [], tracking: true })).body.ping).toBe(true);
    });

    it('pushed fixes and device details reach locate and getaccounts (moving from the anchor ingestion keeps)', async () => {
      const now = Date.now();
      await push(w1.key, {
        locations: [{ ts: now - 3 * MIN, lat: 46, lng: 14, spd: 0 }],
        tracking: true,
        device: { connection_type: 1, android_id: 'f00d', loc_gps_on: true, loc_net_on: true },
      });
      await push(w1.key, { locations: [{ ts: now - 10_000, lat: north(46, 200), lng: 14, acc: 6, dir: 12, spd: 0, elv: 290, bat: 64 }] });
      const [record] = await locate({ accounts: { [w1.uid]: {} }, withDetails: true });
      expect(record).toMatchObject({
        lat: north(46, 200),
        lng: 14,
        ts: now - 10_000,
        acc: 6,
        dir: 12,
        spd: 0,
        elv: 290,
        bat: 64,
        connection_type: 1,
        android_id: 'f00d',
        loc_gps_on: true,
        loc_net_on: true,
        tracking_status: true,
      });
      const account = (await action<any>(api, 'getaccounts', { uids: [w1.uid] }, { key: company.key })).body.accounts[0];
      expect(account.location).toEqual({ lat: north(46, 200), lng: 14, ts: now - 10_000, accuracy: 6 });
      expect(account.states).toEqual({ moving: 'moving', tracking_status: true });
      // tracking switched off: ""
      await push(w1.key, { locations: [], tracking: false });
      expect((await action<any>(api, 'getaccounts', { uids: [w1.uid] }, { key: company.key })).body.accounts[0].states).toEqual({
        moving: '',
        tracking_status: false,
      });
    });

    function north(lat: number, m: number) {
      return lat + m / 111_200;
    }
  });

  describe('validation', () => {
    it.each([
      [{ teams: [1, 'x'] }, 'data.teams.1'],
      [{ teams: [1.5] }, 'data.teams.0'],
      [{ accounts: { abc: 1 } }, 'data.accounts.abc'],
      [{ accounts: { abc: { x: 1 } } }, 'data.accounts.abc'],
      [{ accounts: ['some-uid'] }, 'data.accounts'],
      [{ accounts: 'x' }, 'data.accounts'],
      [{ withAddress: 'yes' }, 'data.withAddress'],
      [{ withDetails: 1 }, 'data.withDetails'],
      [{ signal: 'pong' }, 'data.signal'],
      [{ teams: true, uids: [] }, 'data.uids'],
    ])('%j → -1 naming %s', async (data, field) => {
      const res = await action(api, 'locate', data, { key: company.key });
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error).toContain(field);
    });
  });

  describe('getaccounts location and states', () => {
    beforeEach(clearLatest);

    const account = async (uid: string, key = company.key) => {
      const res = await action<any>(api, 'getaccounts', { uids: [uid] }, { key });
      expect(res.body.status).toBe(0);
      return res.body.accounts[0];
    };

    it('moving (speed ≥ 1 m/s, or ≥ 50 m from the fix 2 min before), stopped, offline, ""', async () => {
      const now = Date.now();
      await setLatest(company.companyUid, w1.uid, { ts: now - MIN, lat: 46, lng: 14, acc: 8, spd: 1.2 });
      await setLatest(company.companyUid, w2.uid, {
        ts: now - MIN,
        lat: north(46, 120),
        lng: 14,
        spd: 0,
        anchor: { ts: now - 4 * MIN, lat: 46, lng: 14 },
      });
      await setLatest(company.companyUid, w3.uid, {
        ts: now - MIN,
        lat: north(46, 20),
        lng: 14,
        spd: 0.3,
        anchor: { ts: now - 4 * MIN, lat: 46, lng: 14 },
      });
      await setLatest(company.companyUid, op.uid, { ts: now - 20 * MIN, lat: 46, lng: 14, spd: 5 });
      await setLatest(company.companyUid, company.ownerUid, { ts: now - MIN, lat: 46, lng: 14, spd: 5, tracking: false });

      expect(await account(w1.uid)).toMatchObject({
        location: { lat: 46, lng: 14, ts: now - MIN, accuracy: 8 },
        states: { moving: 'moving', tracking_status: true },
      });
      expect((await account(w2.uid)).states).toEqual({ moving: 'moving', tracking_status: true });
      expect((await account(w3.uid)).states).toEqual({ moving: 'stopped', tracking_status: true });
      expect((await account(op.uid)).states).toEqual({ moving: 'offline', tracking_status: true });
      expect(await account(company.ownerUid)).toMatchObject({
        location: { lat: 46, lng: 14 },
        states: { moving: '', tracking_status: false },
      });
    });

    function north(lat: number, m: number) {
      return lat + m / 111_200;
    }

    it('never located: location null, states.moving ""; tracking on but never located is "" too', async () => {
      expect(await account(w1.uid)).toMatchObject({ location: null, states: { moving: '', tracking_status: false } });
      await setLatest(company.companyUid, w1.uid, { tracking: true });
      expect(await account(w1.uid)).toMatchObject({ location: null, states: { moving: '', tracking_status: true } });
    });

    it('the list without uids carries them too, and editaccount answers them', async () => {
      await setLatest(company.companyUid, w2.uid, { ts: Date.now(), lat: 10, lng: 20, spd: 0 });
      const res = await action<any>(api, 'getaccounts', {}, { key: company.key });
      const listed = res.body.accounts.find((a: any) => a.uid === w2.uid);
      expect(listed).toMatchObject({
        location: { lat: 10, lng: 20, accuracy: null },
        states: { moving: 'stopped', tracking_status: true },
      });
      const edited = await action<any>(api, 'editaccount', { uid: w2.uid, status_label: `s${Date.now()}` }, { key: company.key });
      expect(edited.body.account).toMatchObject({ location: { lat: 10, lng: 20 }, states: { moving: 'stopped' } });
    });

    it('device_id is shown to administrators and to the member itself, null to everyone else', async () => {
      const deviceId = `dev-${w1.uid}`;
      expect((await action(api, 'editaccount', { uid: w1.uid, device_id: deviceId }, { key: company.key })).body.status).toBe(0);
      expect((await account(w1.uid, company.key)).device_id).toBe(deviceId);
      expect((await account(w1.uid, w1.key)).device_id).toBe(deviceId);
      expect((await account(w1.uid, op.key)).device_id).toBeNull();
      expect((await account(w1.uid, w3.key)).device_id).toBeNull(); // a team-mate
      // an operator editing the worker is answered without it too
      const edited = await action<any>(api, 'editaccount', { uid: w1.uid, status_label: `o${Date.now()}` }, { key: op.key });
      expect(edited.body.account.device_id).toBeNull();
    });
  });
});
