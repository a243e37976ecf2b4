import { TrackBuilder } from '@app/locations';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * `GET /v1/locations` and `GET /v1/tracks` over real HTTP (CONTRACTS.md "Wave 3: connector for
 * automation platforms"; docs/connector.md "Positions", "Tracks"): fixes go in through pushlocations,
 * tracks are built by the tracks fix consumer (run on the api's module, as tracks.e2e-spec does);
 * the answers' fields and states, the filters, the role rules of locate and gettracks (a worker key:
 * itself and its team-mates), tenant isolation, and bad input named in the connector's error shape.
 */
describe('/v1/locations and /v1/tracks', () => {
  let api: TestApi;
  let company: TestCompany;
  let other: TestCompany;
  type Member = { uid: string; username: string; key: string };
  let moving: Member; // team 1, driving
  let halted: Member; // team 1, parked
  let stale: Member; // team 2, last fix 20 min ago
  let never: Member; // team 2, never located
  let stranger: Member; // the other company
  const MIN = 60_000;
  const now = Date.now();

  const push = async (m: Member, locations: object[]) => {
    const res = await action<any>(api, 'pushlocations', { tracking: true, locations }, { key: m.key });
    expect(res.body).toMatchObject({ status: 0, accepted: locations.length });
  };
  const v1 = (path: string, key: string) => connector(api, 'GET', path, key);
  const items = async (path: string, key: string) => {
    const res = await v1(path, key);
    expect({ path, http: res.http }).toEqual({ path, http: 200 });
    return res.body.data.items as any[];
  };
  const ids = async (path: string, key: string) => (await items(path, key)).map((p) => p.member?.id ?? p.ownerUid);

  /** A drive of `n` fixes 30 s apart heading east ~150 m a fix, ending `endsAgo` ms before now. */
  const drive = (n: number, endsAgo: number, lat = 46.05) =>
    Array.from({ length: n }, (_, i) => ({
      ts: now - endsAgo - (n - 1 - i) * 30_000,
      lat,
      lng: 14.5 + i * 0.002,
      acc: 5,
      spd: 5,
      dir: 90,
      bat: 80 - i,
    }));

  beforeAll(async () => {
    api = await startApi();
    company = await createCompany(api);
    other = await createCompany(api);
    const teams = [
      { id: 1, name: 'North' },
      { id: 2, name: 'South' },
    ];
    expect((await action(api, 'editcompany', { teams_config: teams }, { key: company.key })).body.status).toBe(0);
    moving = await createMember(api, company, { teams: [1], name: 'Mia Moving' });
    halted = await createMember(api, company, { teams: [1], name: 'Hal Halted' });
    stale = await createMember(api, company, { teams: [2], name: 'Stan Stale' });
    never = await createMember(api, company, { teams: [2], name: 'Nev Never' });
    stranger = await createMember(api, other, { name: 'Stranger' });
    await push(moving, drive(20, 10_000));
    await push(halted, [{ ts: now - 60_000, lat: 46.06, lng: 14.51, acc: 12, spd: 0, bat: 40 }]);
    await push(stale, [{ ts: now - 20 * MIN, lat: 46.07, lng: 14.52 }]);
    await push(stranger, drive(3, 0, 45));
  });
  afterAll(() => api.close());

  describe('GET /v1/locations', () => {
    it('answers every visible member in creation order with its latest fix, the live stream’s state and trackingOn', async () => {
      const all = await items('/v1/locations', company.key);
      expect(all.map((p) => p.member.id)).toEqual([company.ownerUid, moving.uid, halted.uid, stale.uid, never.uid]);
      const last = drive(20, 10_000)[19];
      expect(all[1]).toEqual({
        member: { id: moving.uid, username: moving.username, name: 'Mia Moving' },
        lat: last.lat,
        lng: last.lng,
        ts: last.ts,
        accuracy: 5,
        speed: 5,
        heading: 90,
        battery: 61,
        state: 'moving',
        trackingOn: true,
      });
      expect(all[2]).toMatchObject({
        lat: 46.06,
        lng: 14.51,
        accuracy: 12,
        speed: 0,
        heading: null,
        battery: 40,
        state: 'halted',
        trackingOn: true,
      });
      expect(all[3]).toMatchObject({ lat: 46.07, accuracy: null, speed: null, state: 'stale', trackingOn: true });
      const off = {
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
      expect(all[4]).toEqual({ member: { id: never.uid, username: never.username, name: 'Nev Never' }, ...off });
      expect(all[0]).toMatchObject({ member: { id: company.ownerUid }, ...off });
      // the same members and fixes as locate answers
      const located = await action<any>(api, 'locate', { teams: true }, { key: company.key });
      expect(located.body.accounts.map((r: { uid: string; ts: number }) => [r.uid, r.ts || null])).toEqual(
        all.map((p) => [p.member.id, p.ts]),
      );
    });

    it('every filter narrows: memberId, username (any case), team; unknown ones select nothing', async () => {
      expect(await ids(`/v1/locations?memberId=${halted.uid}`, company.key)).toEqual([halted.uid]);
      expect(await ids(`/v1/locations?username=${encodeURIComponent(halted.username.toUpperCase())}`, company.key)).toEqual([halted.uid]);
      expect(await ids('/v1/locations?team=2', company.key)).toEqual([stale.uid, never.uid]);
      expect(await ids(`/v1/locations?memberId=${stale.uid}&team=2`, company.key)).toEqual([stale.uid]);
      expect(await ids(`/v1/locations?memberId=${stale.uid}&team=1`, company.key)).toEqual([]);
      expect(await ids('/v1/locations?team=9', company.key)).toEqual([]);
      expect(await ids('/v1/locations?memberId=01JD0000000000000000000000', company.key)).toEqual([]);
      expect(await ids(`/v1/locations?memberId=${halted.username}`, company.key)).toEqual([]); // memberId is a uid
    });

    it('a worker key sees itself and its team-mates only (locate’s rule)', async () => {
      expect(await ids('/v1/locations', moving.key)).toEqual([moving.uid, halted.uid]);
      expect(await ids(`/v1/locations?memberId=${stale.uid}`, moving.key)).toEqual([]);
      expect(await ids('/v1/locations?team=2', moving.key)).toEqual([]);
      expect(await ids('/v1/locations', never.key)).toEqual([stale.uid, never.uid]);
    });

    it('another company’s members never appear, by id, username or list', async () => {
      expect(await ids(`/v1/locations?memberId=${stranger.uid}`, company.key)).toEqual([]);
      expect(await ids(`/v1/locations?username=${encodeURIComponent(stranger.username)}`, company.key)).toEqual([]);
      expect(await ids('/v1/locations', other.key)).toEqual([other.ownerUid, stranger.uid]);
      expect(await ids(`/v1/locations?memberId=${moving.uid}`, other.key)).toEqual([]);
    });

    it('bad input → 400 naming the parameter', async () => {
      for (const [q, message] of [
        ['team=0', 'query.team: must be a team id (an integer ≥ 1)'],
        ['team=north', 'query.team: must be a team id (an integer ≥ 1)'],
        [`memberId=${moving.uid}&username=x`, 'query.username: send memberId or username, not both'],
        ['memberId=', 'query.memberId: must be longer than or equal to 1 characters'],
        ['withAddress=true', 'query.withAddress: unknown field'],
      ]) {
        expect({ q, res: await v1(`/v1/locations?${q}`, company.key) }).toEqual({ q, res: { http: 400, body: { error: { message } } } });
      }
    });
  });

  describe('GET /v1/tracks', () => {
    let from: number;
    let until: number;

    beforeAll(async () => {
      const fixes = drive(20, 10_000);
      await api.app
        .get(TrackBuilder)
        .onFixes({ companyId: company.companyUid, memberId: moving.uid, fromTs: fixes[0].ts, toTs: fixes[19].ts });
      from = now - 3600_000;
      until = now + 60_000;
    });

    it('answers the member’s tracks in the Track entry’s fields, camelCase, as gettracks does', async () => {
      const tracks = await items(`/v1/tracks?memberId=${moving.uid}&from=${from}&until=${until}`, company.key);
      expect(tracks.length).toBeGreaterThan(0);
      const flat = await action<any>(api, 'gettracks', { uids: [moving.uid], from, until }, { key: company.key });
      const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(tracks).toEqual(
        (flat.body.tracks as Array<Record<string, unknown>>).map((t) =>
          Object.fromEntries(Object.entries(t).map(([k, v]) => [camel(k), v])),
        ),
      );
      expect(tracks[0]).toMatchObject({
        ownerUid: moving.uid,
        kind: 'track_entry',
        startTs: expect.any(Number),
        waypointCount: expect.any(Number),
        shortEncoded: expect.any(String),
        shareUrl: expect.stringContaining('/share/tracks/'),
      });
      expect(tracks[0].distance).toBeGreaterThan(1000);
      // a range before the drive: nothing
      expect(await items(`/v1/tracks?memberId=${moving.uid}&from=${from - 7200_000}&until=${from}`, company.key)).toEqual([]);
    });

    it('role rules as gettracks: a team-mate sees them, a worker of another team and another company get none', async () => {
      const q = `/v1/tracks?memberId=${moving.uid}&from=${from}&until=${until}`;
      expect((await items(q, halted.key)).length).toBeGreaterThan(0);
      expect(await items(q, stale.key)).toEqual([]);
      expect(await items(q, other.key)).toEqual([]);
      expect(await items(`/v1/tracks?memberId=01JD0000000000000000000000&from=${from}&until=${until}`, company.key)).toEqual([]);
    });

    it('bad input → 400 naming the parameter; seconds are refused naming the unit', async () => {
      const m = moving.uid;
      const s = Math.floor(now / 1000);
      for (const [q, message] of [
        [`from=${from}&until=${until}`, 'query.memberId: is required: a member uid'],
        [`memberId=${m}&until=${until}`, 'query.from: is required: ms since the epoch'],
        [`memberId=${m}&from=${from}`, 'query.until: is required: ms since the epoch'],
        [`memberId=${m}&from=${s - 3600}&until=${until}`, `query.from: must be ms since the epoch; ${s - 3600} looks like seconds`],
        [`memberId=${m}&from=${from}&until=abc`, 'query.until: must be an integer ≥ 0 (ms)'],
        [`memberId=${m}&from=${until}&until=${from}`, 'query.until: must not be before query.from'],
        [
          `memberId=${m}&from=${from}&until=${from + 32 * 24 * 3600_000}`,
          'query.until: the range from query.from may span at most 31 days',
        ],
        [`memberId=${m}&from=${from}&until=${until}&withCourse=true`, 'query.withCourse: unknown field'],
      ]) {
        expect({ q, res: await v1(`/v1/tracks?${q}`, company.key) }).toEqual({ q, res: { http: 400, body: { error: { message } } } });
      }
    });
  });
});
