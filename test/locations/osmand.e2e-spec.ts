import { AppConfig } from '@app/core';
import { OsmandGroupCommit } from '@app/locations';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';

/**
 * `/osmand` (Traccar Client) against the real api and PostgreSQL: the query, form and JSON forms
 * with their units, unknown devices, tenancy, deactivated members and the per-device rate limit;
 * the group commit of concurrent requests (one statement for many devices) against sequential ones.
 */
const PREFIX = `fieldwork-osmand-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
const LIMIT = 40;
process.env.RATE_LIMIT_PER_MINUTE = String(LIMIT);

describe('/osmand', () => {
  let api: TestApi;
  let db: DataSource;
  let c: TestCompany;
  let w: { uid: string; key: string };
  let device: string;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    c = await createCompany(api);
    w = await createMember(api, c);
    device = `Traccar-${w.uid}`;
    expect((await action(api, 'editaccount', { uid: w.uid, device_id: device }, { key: c.key })).body.status).toBe(0);
  });

  afterAll(async () => {
    await api.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  const fixesOf = async (companyId: string, memberId: string, ts?: number) =>
    db.query(
      `SELECT ts::float8 AS ts, lat, lng, acc, dir, spd, elv, bat FROM location_fixes WHERE company_id = $1 AND member_id = $2 ${ts ? 'AND ts = $3' : ''} ORDER BY ts`,
      ts ? [companyId, memberId, ts] : [companyId, memberId],
    );
  const get = (params: Record<string, string>) => fetch(`${api.url}/osmand?${new URLSearchParams(params)}`);
  const postForm = (params: Record<string, string>) =>
    fetch(`${api.url}/osmand`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
  const postJson = (body: unknown) =>
    fetch(`${api.url}/osmand`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('query string (GET and POST): speed in knots, Unix seconds, bearing, extra parameters ignored; 200 with an empty body', async () => {
    const secs = Math.floor(Date.now() / 1000) - 600;
    const res = await get({
      id: device.toUpperCase(), // looked up case-insensitively
      timestamp: String(secs),
      lat: '46.05',
      lon: '14.5',
      speed: '10',
      bearing: '91.6',
      altitude: '301.4',
      accuracy: '7.7',
      batt: '55.5',
      hdop: '0.9',
      charge: 'true',
      driverUniqueId: 'abc',
      wifi: 'aa-bb-cc-dd-ee-ff,-60',
      cell: '293,40,1,2',
      odometer: '123',
      activity: 'still',
      valid: 'true',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const [fix] = await fixesOf(c.companyUid, w.uid, secs * 1000);
    expect(fix).toEqual({ ts: secs * 1000, lat: 46.05, lng: 14.5, acc: 8, dir: 92, spd: expect.closeTo(5.14444, 5), elv: 301, bat: 56 });

    const post = await fetch(`${api.url}/osmand?id=${device}&location=46.06,14.51&heading=180&timestamp=${secs * 1000 + 1}`, {
      method: 'POST',
    });
    expect(post.status).toBe(200);
    expect((await fixesOf(c.companyUid, w.uid, secs * 1000 + 1))[0]).toMatchObject({ lat: 46.06, lng: 14.51, dir: 180 });
  });

  it('form body with a yyyy-MM-dd HH:mm:ss (UTC) timestamp; counts as tracking, source osmand, no clock event', async () => {
    const t = new Date(Date.now() - 120_000);
    t.setUTCMilliseconds(0);
    const stamp = t.toISOString().replace('T', ' ').slice(0, 19);
    const res = await postForm({ deviceid: device, timestamp: stamp, lat: '46.07', lon: '14.52', speed: '0' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect((await fixesOf(c.companyUid, w.uid, t.getTime()))[0]).toMatchObject({ lat: 46.07, spd: 0 });
    const [row] = await db.query(
      `SELECT tracking_status, source, ts::float8 AS ts FROM member_locations WHERE company_id = $1 AND member_id = $2`,
      [c.companyUid, w.uid],
    );
    expect(row).toEqual({ tracking_status: true, source: 'osmand', ts: t.getTime() });
    expect(await db.query(`SELECT 1 FROM clock_events WHERE company_id = $1 AND member_id = $2`, [c.companyUid, w.uid])).toEqual([]);
  });

  it('JSON body of the newer client: speed in m/s, battery 0..1, ISO timestamp', async () => {
    const ts = Date.now() - 60_000;
    const res = await postJson({
      device_id: device,
      location: {
        timestamp: new Date(ts).toISOString(),
        coords: { latitude: 46.08, longitude: 14.53, accuracy: 3.2, speed: 2.5, heading: 45, altitude: 280 },
        is_moving: true,
        odometer: 1000,
        activity: { type: 'in_vehicle' },
        battery: { level: 0.73, is_charging: true },
      },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect((await fixesOf(c.companyUid, w.uid, ts))[0]).toEqual({
      ts,
      lat: 46.08,
      lng: 14.53,
      acc: 3,
      dir: 45,
      spd: 2.5,
      elv: 280,
      bat: 73,
    });
  });

  it('unknown device: 404 for JSON bodies, 400 otherwise; nothing stored', async () => {
    const before = (await db.query(`SELECT count(*)::int AS n FROM location_fixes`))[0].n;
    expect((await postJson({ device_id: 'nobody-here', location: { coords: { latitude: 1, longitude: 2 } } })).status).toBe(404);
    expect((await get({ id: 'nobody-here', lat: '1', lon: '2' })).status).toBe(400);
    expect((await postForm({ id: 'nobody-here', lat: '1', lon: '2' })).status).toBe(400);
    expect((await db.query(`SELECT count(*)::int AS n FROM location_fixes`))[0].n).toBe(before);
  });

  it('the lean route keeps the envelope: X-Request-Id, errors in the filter’s shape, counted in /metrics as /osmand', async () => {
    const ok = await fetch(`${api.url}/osmand?${new URLSearchParams({ id: device, lat: '46.05', lon: '14.5' })}`, {
      headers: { 'x-request-id': 'osmand-req-1' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('osmand-req-1');
    const bad = await get({ id: device, lat: '1', lon: 'east' });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await bad.json()).toEqual({ status: -1, error: expect.stringContaining('lon: must be a number') });
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).toMatch(/fieldwork_http_requests_total\{surface="other",route="\/osmand",status="200"\} \d+/);
    expect(metrics).toMatch(/fieldwork_http_requests_total\{surface="other",route="\/osmand",status="400"\} \d+/);
  });

  it('a bad value → 400 naming it, as sent', async () => {
    const cases: Array<[Promise<Response>, string]> = [
      [get({ id: device, lat: '1', lon: 'east' }), 'lon: must be a number'],
      [get({ id: device, lat: '91', lon: '2' }), 'lat: must be between -90 and 90'],
      [get({ id: device, lat: '1', lon: '2', bearing: '400' }), 'bearing: must be between 0 and 360'],
      [get({ id: device, lat: '1', lon: '2', timestamp: 'noon' }), 'timestamp: must be Unix seconds or ms'],
      [
        get({ id: device, lat: '1', lon: '2', timestamp: String(Date.now() + 3_600_000) }),
        'timestamp: must not be more than 5 minutes ahead',
      ],
      [get({ lat: '1', lon: '2' }), 'id: is required'],
      [
        postJson({ device_id: device, location: { coords: { latitude: 1, longitude: 200 } } }),
        'location.coords.longitude: must be between -180 and 180',
      ],
      [
        postJson({ device_id: device, location: { coords: { latitude: 1, longitude: 2 }, battery: { level: 7 } } }),
        'location.battery.level: must be between 0 and 1',
      ],
    ];
    for (const [pending, error] of cases) {
      const res = await pending;
      const body = (await res.json()) as { error: string };
      expect({ error, http: res.status }).toEqual({ error, http: 400 });
      expect(body.error).toContain(error);
    }
  });

  it('found by fuzzing: a device id holding a NUL byte or a lone surrogate → 400 naming the field (was a 500)', async () => {
    const nul = 'must not contain the NUL character';
    const surrogate = 'must be well-formed Unicode: it holds a lone surrogate';
    const cases: Array<[Promise<Response>, string]> = [
      [fetch(`${api.url}/osmand?id=a%00b&lat=1&lon=2`), `id: ${nul}`],
      [fetch(`${api.url}/osmand?deviceid=%00`), `deviceid: ${nul}`],
      [postForm({ id: 'a\u0000', lat: '1', lon: '2' }), `id: ${nul}`],
      [postJson({ device_id: 'a\u0000b', location: { coords: { latitude: 1, longitude: 2 } } }), `device_id: ${nul}`],
      [postJson({ device_id: '\u0000' }), `device_id: ${nul}`],
      [postJson({ device_id: 'a\ud800b', location: { coords: { latitude: 1, longitude: 2 } } }), `device_id: ${surrogate}`],
      [postJson({ device_id: '\udc00' }), `device_id: ${surrogate}`],
    ];
    for (const [pending, error] of cases) {
      const res = await pending;
      expect({ error, http: res.status, body: await res.json() }).toEqual({ error, http: 400, body: { status: -1, error } });
    }
    // (a query string or form body can't carry a lone surrogate: percent-encoding is UTF-8, which has
    // none; undecodable bytes arrive as U+FFFD). A well-formed pair (an emoji) is a device id like any
    // other: unknown here
    const emoji = await postJson({ device_id: 'phone-\ud83d\ude00', location: { coords: { latitude: 1, longitude: 2 } } });
    expect(emoji.status).toBe(404);
  });

  it('a URL beyond the header limit → 431 in the action shape (was Node’s {statusCode, message})', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ http: number; type?: string; body: string }>((resolve, reject) => {
      const req = request(`${api.url}/osmand?id=${device}&lat=1&lon=2&pad=${'a'.repeat(20_000)}`, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ http: res.statusCode!, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.http).toBe(431);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ status: -1, error: expect.stringContaining('request header fields too large') });
  });

  it('lands in the device member’s own company only; a deactivated member’s device is unknown', async () => {
    const other = await createCompany(api);
    const o = await createMember(api, other);
    const otherDevice = `other-${o.uid}`;
    expect((await action(api, 'editaccount', { uid: o.uid, device_id: otherDevice }, { key: other.key })).body.status).toBe(0);
    const ts = Date.now() - 5000;
    expect((await get({ id: otherDevice, lat: '10', lon: '10', timestamp: String(ts) })).status).toBe(200);
    expect(await db.query(`SELECT company_id, member_id FROM location_fixes WHERE ts = $1 AND lat = 10`, [ts])).toEqual([
      { company_id: other.companyUid, member_id: o.uid },
    ]);
    expect(await fixesOf(c.companyUid, o.uid)).toEqual([]);

    expect((await action(api, 'deleteaccount', { uid: o.uid }, { key: other.key })).body.status).toBe(0);
    expect((await get({ id: otherDevice, lat: '10', lon: '10' })).status).toBe(400);
    expect((await postJson({ device_id: otherDevice, location: { coords: { latitude: 1, longitude: 2 } } })).status).toBe(404);
  });

  it('group commit: concurrent requests of many devices share statements, and each answer and row equals sequential requests', async () => {
    const ingest = api.app.get(OsmandGroupCommit);
    const passes = api.app.get(AppConfig).OSMAND_GROUP_COMMIT_PASSES;
    const cg = await createCompany(api);
    const T = Date.now() - 60_000;
    // two sets of the same six devices: 'a' gets the scenario concurrently, 'b' one request after another
    const sets: Record<'a' | 'b', Array<{ uid: string; device: string }>> = { a: [], b: [] };
    for (const set of ['a', 'b'] as const) {
      for (let k = 0; k < 6; k++) {
        const m = await createMember(api, cg);
        const dev = `gc-${set}${k}-${m.uid}`;
        expect((await action(api, 'editaccount', { uid: m.uid, device_id: dev }, { key: cg.key })).body.status).toBe(0);
        sets[set].push({ uid: m.uid, device: dev });
      }
    }
    const fix = (id: string, ts: number, lat: number) => ({ id, timestamp: String(ts), lat: String(lat), lon: '14.5', speed: '1' });
    // stored before: device 1 a fix the scenario repeats, device 2 a newer latest than its late fix, device 3 an anchor candidate
    for (const set of ['a', 'b'] as const) {
      const d = sets[set].map((x) => x.device);
      for (const params of [fix(d[1], T - 600_000, 45.1), fix(d[2], T, 45.2), fix(d[3], T - 180_000, 45.3)]) {
        expect((await get(params)).status).toBe(200);
      }
    }
    type Req = () => Promise<Response>;
    const scenario = (d: string[], tag: string): Req[] => [
      () => get(fix(d[0], T - 60_000, 46.01)), // device 0 twice in flight: the older first…
      () => get(fix(d[0].toUpperCase(), T, 46.02)), // …then the newer, its id in capitals (the same member)
      () => get(fix(d[1], T - 600_000, 46.1)), // the fix already stored: ignored (the stored one stays)
      () => get(fix(d[2], T - 300_000, 46.2)), // late: stored, the latest not moved back
      () => get(fix(`gc-nobody-${tag}`, T, 1)), // unknown device (query form): 400
      () => postJson({ device_id: `gc-nobody-json-${tag}`, location: { timestamp: new Date(T).toISOString(), coords: { latitude: 1, longitude: 2 } } }), // unknown (JSON): 404
      () => get(fix(d[3], T, 46.3)), // moves the latest; the stored fix 3 min older becomes the anchor
      () => get(fix(d[4], T - 30_000, 46.4)), // a device's first fix: a new row
      () => postJson({ device_id: d[5], location: { timestamp: new Date(T - 20_000).toISOString(), coords: { latitude: 46.5, longitude: 14.6 } } }),
    ];
    const answer = async (res: Response) => ({ status: res.status, body: (await res.text()).replace(/gc-nobody-(json-)?[ab]/, 'gc-nobody-$1?') });
    const waitFor = async (what: string, done: () => Promise<boolean> | boolean) => {
      for (let i = 0; i < 500 && !(await done()); i++) await new Promise((r) => setTimeout(r, 10));
      if (!(await done())) throw new Error(`timed out waiting for ${what}`);
    };
    const lockWaiters = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n;

    // sequential: set b, one request after another
    const sequential: Array<{ status: number; body: string }> = [];
    for (const req of scenario(sets.b.map((x) => x.device), 'b')) sequential.push(await answer(await req()));

    // concurrent: every statement slot held by a blocker device (its row locked here), then the scenario
    // sent in order — each request waiting at the group commit before the next is sent — then released
    const blockers: Array<{ uid: string; device: string }> = [];
    for (let k = 0; k < passes; k++) {
      const m = await createMember(api, cg);
      const dev = `gc-blocker${k}-${m.uid}`;
      expect((await action(api, 'editaccount', { uid: m.uid, device_id: dev }, { key: cg.key })).body.status).toBe(0);
      expect((await get(fix(dev, T - 1000, 40))).status).toBe(200);
      blockers.push({ uid: m.uid, device: dev });
    }
    const lock = db.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    let blocked: Array<Promise<Response>> = [];
    const pending: Array<Promise<{ status: number; body: string }>> = [];
    const before = ingest.groupCommitStats;
    try {
      await lock.query(`SELECT 1 FROM member_locations WHERE company_id = $1 AND member_id = ANY($2) FOR UPDATE`, [
        cg.companyUid,
        blockers.map((b) => b.uid),
      ]);
      blocked = blockers.map((b) => get(fix(b.device, T, 41)));
      await waitFor('the blockers to wait for the lock', async () => (await lockWaiters()) === passes);
      for (const [k, req] of scenario(sets.a.map((x) => x.device), 'a').entries()) {
        pending.push(req().then(answer));
        await waitFor(`request ${k} at the group commit`, () => ingest.groupCommitStats.waiting === k + 1);
      }
    } finally {
      await lock.commitTransaction();
      await lock.release();
    }
    expect((await Promise.all(blocked)).map((r) => r.status)).toEqual(blockers.map(() => 200));
    const concurrent = await Promise.all(pending);
    const after = ingest.groupCommitStats;
    // the blockers' statements, then one for the eight distinct devices, then device 0's second request
    expect({ statements: after.statements - before.statements, items: after.items - before.items }).toEqual({
      statements: passes + 2,
      items: passes + 9,
    });
    expect(after.maxItems).toBeGreaterThanOrEqual(8);

    // each request's answer equals the sequential one's
    expect(concurrent).toEqual(sequential);
    expect(concurrent.map((a) => a.status)).toEqual([200, 200, 200, 200, 400, 404, 200, 200, 200]);
    expect(concurrent[4].body).toContain('unknown device: gc-nobody-?');

    // and the stored rows (member by member, by position in the set)
    const stored = async (set: Array<{ uid: string }>) =>
      Promise.all(
        set.map(async (m) => ({
          fixes: await fixesOf(cg.companyUid, m.uid),
          latest: await db.query(
            `SELECT ts::float8 AS ts, lat, lng, acc, dir, spd, elv, bat, source, anchor_ts::float8 AS anchor_ts, anchor_lat, anchor_lng,
              tracking_status, late_fix_count::int AS late_fix_count, connection_type, android_id, ping_requested_at FROM member_locations WHERE company_id = $1 AND member_id = $2`,
            [cg.companyUid, m.uid],
          ),
        })),
      );
    const rowsA = await stored(sets.a);
    expect(rowsA).toEqual(await stored(sets.b));
    // what that is, device by device
    expect(rowsA[0].fixes.map((f: { ts: number }) => f.ts)).toEqual([T - 60_000, T]);
    expect(rowsA[0].latest[0]).toMatchObject({ ts: T, lat: 46.02, tracking_status: true, source: 'osmand', late_fix_count: 0 });
    expect(rowsA[1].fixes).toEqual([expect.objectContaining({ ts: T - 600_000, lat: 45.1 })]);
    expect(rowsA[2].fixes.map((f: { ts: number }) => f.ts)).toEqual([T - 300_000, T]);
    expect(rowsA[2].latest[0]).toMatchObject({ ts: T, lat: 45.2, late_fix_count: 1 });
    expect(rowsA[3].latest[0]).toMatchObject({ ts: T, lat: 46.3, anchor_ts: T - 180_000, anchor_lat: 45.3 });
    expect(rowsA[4].latest[0]).toMatchObject({ ts: T - 30_000, lat: 46.4, tracking_status: true, anchor_ts: null });
    expect(rowsA[5].latest[0]).toMatchObject({ ts: T - 20_000, lat: 46.5, lng: 14.6 });
    expect(await db.query(`SELECT 1 FROM location_fixes WHERE company_id = $1 AND lat = 1 AND lng = 2`, [cg.companyUid])).toEqual([]);
  });

  it(`rate-limits per device id with the per-key budget (${LIMIT}/min) → 429 with Retry-After`, async () => {
    const c2 = await createCompany(api);
    const m = await createMember(api, c2);
    const dev = `rl-${m.uid}`;
    expect((await action(api, 'editaccount', { uid: m.uid, device_id: dev }, { key: c2.key })).body.status).toBe(0);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < LIMIT + 5; i++) {
      const res = await get({ id: i % 2 ? dev : dev.toUpperCase(), lat: '1', lon: '2', timestamp: String(Date.now() - 10_000 + i) });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
