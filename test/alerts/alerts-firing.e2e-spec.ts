import {
  AlertFiringsRepository,
  AlertMemberStatesRepository,
  AlertRulesRepository,
  AlertsClock,
  AlertsFixConsumer,
  ClockCandidatesRead,
  FiringWriter,
  RulesCache,
  RuleTargetsRead,
  ZoneClassificationRead,
} from '@app/alerts';
import { dayInZone, newId, OutboxService, QueueName, TaskProducer, zonedDayTimeToMs } from '@app/core';
import { FixConsumerRegistry, FixParticipantRegistry, GeofenceEvaluator, GeofenceRepository } from '@app/locations';
import { JobsService } from '@app/jobs';
import { Place, PlacesService } from '@app/places';
import { Queue } from 'bullmq';
import { Geodesic } from 'geographiclib-geodesic';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { Child, startRedisServer, waitFor } from '../support/proc-child';
import { Received, WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';
import { useWorkerStack } from '../support/worker-stack';
import { withRedis } from '../support/durability-redis';

/**
 * Alert evaluation end to end (issue #12 §3, CONTRACTS.md "Alerts and zones"): fixes pushed through
 * `pushlocations`, evaluated by the BUILT worker (the `alerts` fix consumer, the geofence's check
 * listener, the clock's `tick` enqueued through the real queue with a chosen `now`), `alert_triggered`
 * delivered to a real webhook receiver. Rules and zones are created through `createalert` and
 * `createzone`. Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-alerts-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

const ZONE = 'Europe/Ljubljana';
const CENTER = { lat: 46.0511, lng: 14.5051 };
const MIN = 60_000;

interface PushFix {
  ts: number;
  lat: number;
  lng: number;
  acc?: number;
  bat?: number;
}
interface Member {
  uid: string;
  username: string;
  key: string;
  name: string;
}
interface RuleFields {
  members?: string[];
  teams?: number[];
  placeId?: string | null;
  zoneId?: string | null;
  interval?: number | null;
  threshold?: number | null;
  window?: { days: number[]; start: number; end: number } | null;
  active?: boolean;
  title?: string;
  createdAt?: number;
}

/** A point `m` metres from `from` along azimuth `azi` (degrees). */
function offset(from: { lat: number; lng: number }, m: number, azi = 90): { lat: number; lng: number } {
  const p = Geodesic.WGS84.Direct(from.lat, from.lng, azi, m);
  return { lat: p.lat2!, lng: p.lon2! };
}

/** Fixes every `step` s for [fromS, toS] seconds after `t0`, `m` metres east of `center`, with `extra` fields. */
function stay(
  center: { lat: number; lng: number },
  t0: number,
  fromS: number,
  toS: number,
  m: number,
  extra: Partial<PushFix> = {},
  step = 5,
): PushFix[] {
  const out: PushFix[] = [];
  for (let s = fromS; s <= toS; s += step) out.push({ ts: t0 + s * 1000, ...offset(center, m), acc: 5, ...extra });
  return out;
}

/** A square GeoJSON polygon of half side `half` m around `c`. */
function squarePolygon(c: { lat: number; lng: number }, half: number): { type: 'Polygon'; coordinates: number[][][] } {
  const dLat = half / 111_320;
  const dLng = half / (111_320 * Math.cos((c.lat * Math.PI) / 180));
  const ring = [
    [c.lng - dLng, c.lat - dLat],
    [c.lng + dLng, c.lat - dLat],
    [c.lng + dLng, c.lat + dLat],
    [c.lng - dLng, c.lat + dLat],
    [c.lng - dLng, c.lat - dLat],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

describe('alert evaluation', () => {
  // ALERTS_TICK_MS 24 h: the scheduled tick runs once at start-up (before any test data); the tests tick with their own `now`
  const stack = useWorkerStack(PREFIX, {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RECONCILE_MS: '500',
    QUEUE_LOCK_MS: '5000',
    ALERTS_TICK_MS: String(24 * 3_600_000),
  });
  let api: TestApi;
  let db: DataSource;
  let receiver: WebhookReceiver;
  beforeAll(() => ({ api, db, receiver } = stack));

  let seq = 0;
  /** A fresh company (Ljubljana time), `n` workers, and the alert_triggered webhook on a path of its own. */
  async function setup(n = 1): Promise<{ c: TestCompany; ws: Member[]; path: string }> {
    const c = await createCompany(api, { timezone: ZONE });
    const ws: Member[] = [];
    for (let i = 0; i < n; i++) {
      const name = `Luka Novak ${++seq}`;
      ws.push({ ...(await createMember(api, c, { role: 'worker', name })), name });
    }
    // members exist since last week (a deadline before a member existed never fires)
    await db.query(`UPDATE members SET created_at = created_at - 7 * 86400000 WHERE company_id = $1`, [c.companyUid]);
    const path = `/alerts-${seq}`;
    const res = await action(api, 'setwebhooks', { alert_triggered: { url: receiver.url + path } }, { key: c.key });
    expect(res.body.status).toBe(0);
    return { c, ws, path };
  }

  /**
   * Creates a rule through `createalert` (real HTTP), then backdates its creation to a week ago unless
   * told (SQL, test set-up only: the clock never looks for deadlines before a rule existed).
   */
  async function addRule(c: TestCompany, act: string, f: RuleFields = {}): Promise<string> {
    const body: Record<string, unknown> = { action: act, title: f.title ?? `Rule ${act}`, description: `About ${act}` };
    if (f.members) body.members = f.members;
    if (f.teams) body.teams = f.teams;
    if (f.placeId) body.placeUid = f.placeId;
    if (f.zoneId) body.zoneId = f.zoneId;
    if (f.interval) body.interval = f.interval;
    if (f.threshold) body.threshold = f.threshold;
    if (f.window) body.window = f.window;
    if (f.active !== undefined) body.active = f.active;
    const res = await action<{ id: string }>(api, 'createalert', body, { key: c.key });
    expect(res.body).toMatchObject({ status: 0 });
    await db.query(`UPDATE alert_rules SET created_at = $3 WHERE company_id = $1 AND id = $2`, [
      c.companyUid,
      res.body.id,
      f.createdAt ?? Date.now() - 7 * 24 * 3_600_000,
    ]);
    return res.body.id;
  }

  /** Creates a square zone of half side `half` m around `center` through `createzone` (real HTTP). */
  async function addZone(
    c: TestCompany,
    name: string,
    center: { lat: number; lng: number },
    half: number,
    danger = false,
  ): Promise<string> {
    const res = await action<{ id: string }>(api, 'createzone', { name, polygon: squarePolygon(center, half), danger }, { key: c.key });
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.id;
  }

  async function addPlace(c: TestCompany, name: string, center: { lat: number; lng: number }, radius = 100): Promise<Place> {
    const place = db.getRepository(Place).create({
      id: newId(),
      companyId: c.companyUid,
      name,
      location: { type: 'Point', coordinates: [center.lng, center.lat] },
      radius,
      address: 'Trg 1',
      city: 'Ljubljana',
      data: [],
      teams: [],
      creatorId: c.ownerUid,
      createdAt: Date.now(),
      deletedAt: null,
    });
    await db.getRepository(Place).insert(place);
    return place;
  }

  /** Pushes fixes in calls of `batch` (with `tracking` when given), then waits until `table` has evaluated them all. */
  async function push(
    w: Member,
    c: TestCompany,
    fixes: PushFix[],
    opts: { table?: 'alert_member_states' | 'geofence_states'; tracking?: boolean; batch?: number } = {},
  ): Promise<void> {
    const batch = opts.batch ?? 50;
    for (let i = 0; i < fixes.length; i += batch) {
      const body: Record<string, unknown> = { locations: fixes.slice(i, i + batch) };
      if (opts.tracking !== undefined) body.tracking = opts.tracking;
      const res = await action(api, 'pushlocations', body, { key: w.key });
      expect(res.body).toMatchObject({ status: 0, rejected: [] });
    }
    const last = Math.max(...fixes.map((f) => f.ts));
    const table = opts.table ?? 'alert_member_states';
    await waitFor(
      `${table} evaluation`,
      async () => {
        const [row] = await db.query(`SELECT evaluated_ts::float8 AS ts FROM ${table} WHERE company_id = $1 AND member_id = $2`, [
          c.companyUid,
          w.uid,
        ]);
        return row && row.ts >= last;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
  }

  let tickSeq = 0;
  /** Enqueues a clock tick at `now` through the real queue and waits until a worker has run it. */
  async function tick(now: number): Promise<void> {
    const jobId = `test-tick-${process.pid}-${++tickSeq}`;
    await api.app.get(TaskProducer).add(QueueName.Alerts, 'tick', { now }, { jobId });
    const queue = api.app.get(TaskProducer).queue(QueueName.Alerts) as Queue;
    await waitFor(
      `tick ${jobId}`,
      async () => {
        const job = await queue.getJob(jobId);
        if (job && (await job.isFailed())) throw new Error(`tick failed: ${job.failedReason}`);
        return !job; // removed on completion
      },
      { timeoutMs: 20_000, intervalMs: 50 },
    );
  }

  /** The evaluation's firing writer, built in the test process over the api's services. */
  const writer = () =>
    new FiringWriter(new AlertFiringsRepository(db), new RuleTargetsRead(db), api.app.get(OutboxService), api.app.get(PlacesService));
  /** Geofencing's pass with the alerts participant, as the worker runs them, built in the test process. */
  function geofencePassWithAlerts(): GeofenceEvaluator {
    const participants = new FixParticipantRegistry();
    const rulesCache = new RulesCache(new AlertRulesRepository(db), new RuleTargetsRead(db));
    new AlertsFixConsumer(
      participants,
      new ZoneClassificationRead(),
      new AlertMemberStatesRepository(),
      writer(),
      rulesCache,
    ).onModuleInit();
    return new GeofenceEvaluator(
      new FixConsumerRegistry(),
      new GeofenceRepository(db),
      api.app.get(JobsService),
      api.app.get(PlacesService),
      api.app.get(OutboxService),
      undefined,
      participants,
    );
  }
  const data = (r: Received) => JSON.parse(r.form.data);
  const firings = (c: TestCompany) =>
    db.query(
      `SELECT rule_id AS "ruleId", member_id AS "memberId", action, occurrence, place_id AS "placeId", zone_id AS "zoneId",
              check_type AS "checkType", message, ts::float8 AS ts
         FROM alert_firings WHERE company_id = $1 ORDER BY ts, action`,
      [c.companyUid],
    );
  /** Lets stray deliveries arrive before asserting that none did. */
  const quiet = () => new Promise((r) => setTimeout(r, 1500));
  /** Deliveries at `path` whose alert is rule `ruleId`. */
  const deliveredFor = (path: string, ruleId: string) => receiver.at(path).filter((r) => data(r).alert.id === ruleId);

  it('zones: enters_zone, leaves_zone, enters_danger_zone fire once per visit (dwell, 20 m band), re-arm, and carry the spec payload', async () => {
    const { c, ws, path } = await setup();
    const [w] = ws;
    const north = await addZone(c, 'North depot', CENTER, 150);
    const quarryCenter = offset(CENTER, 2000, 0);
    const quarry = await addZone(c, 'Quarry', quarryCenter, 150, true);
    const nearCenter = offset(CENTER, 1000, 180);
    const near = await addZone(c, 'Near miss', nearCenter, 150);
    const enters = await addRule(c, 'enters_zone', { zoneId: north });
    const leaves = await addRule(c, 'leaves_zone', { zoneId: north });
    const danger = await addRule(c, 'enters_danger_zone');
    const nearRule = await addRule(c, 'enters_zone', { zoneId: near });
    const none = await addRule(c, 'none');
    // a zone deleted (deletezone) under a rule: the rule watches nothing
    const gone = await addZone(c, 'Gone', CENTER, 300);
    const goneRule = await addRule(c, 'enters_zone', { zoneId: gone });
    expect((await action(api, 'deletezone', { id: gone }, { key: c.key })).body.status).toBe(0);
    const t0 = Date.now() - 60 * MIN;
    const fixes = [
      ...stay(CENTER, t0, 0, 60, 600), // approaching
      ...stay(CENTER, t0, 65, 200, 50), // inside North from 65 s (dwell 60 s) → enters at 65 s
      ...stay(CENTER, t0, 205, 400, 160), // in the 20 m band outside: still in
      ...stay(CENTER, t0, 405, 500, 60),
      ...stay(CENTER, t0, 505, 600, 400), // beyond from 505 s for the dwell → leaves at 505 s
      ...stay(CENTER, t0, 605, 640, 40), // back inside for 35 s (< dwell): no entry
      ...stay(CENTER, t0, 645, 700, 500),
      ...stay(nearCenter, t0, 705, 900, 160), // Near miss: only its band, never inside
      ...stay(quarryCenter, t0, 905, 1000, 0), // the danger zone: enters at 905 s
      ...stay(quarryCenter, t0, 1005, 1100, 600),
      ...stay(CENTER, t0, 1105, 1200, 0), // North again: re-armed → enters at 1105 s
    ];
    await push(w, c, fixes, { batch: 37 });
    await receiver.waitFor(path, 4);
    await quiet();
    const got = receiver.at(path);
    expect(got).toHaveLength(4);
    expect(deliveredFor(path, nearRule)).toHaveLength(0);
    expect(deliveredFor(path, none)).toHaveLength(0);
    expect(deliveredFor(path, goneRule)).toHaveLength(0);

    const stored = await firings(c);
    expect(stored.map((f: { ruleId: string; occurrence: string }) => [f.ruleId, f.occurrence])).toEqual([
      [enters, `${north}:in:${t0 + 65_000}`],
      [leaves, `${north}:out:${t0 + 505_000}`],
      [danger, `${quarry}:in:${t0 + 905_000}`],
      [enters, `${north}:in:${t0 + 1_105_000}`],
    ]);
    const entry = deliveredFor(path, enters)[0];
    expect(entry.form).toMatchObject({ account: c.username, action: 'alerttriggered', reason: 'alerttriggered' });
    // the live stream's audience, written with each firing: staff and the member concerned (docs/live.md)
    const audiences = await db.query(
      `SELECT audience_staff AS staff, audience_members AS members, payload::json -> 'member' ->> 'uid' AS uid
         FROM outbox_events WHERE company_id = $1 AND action = 'alerttriggered'`,
      [c.companyUid],
    );
    expect(audiences.length).toBeGreaterThan(0);
    for (const a of audiences) expect(a).toEqual({ staff: true, members: [a.uid], uid: expect.any(String) });
    const hhmm = (ms: number) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
    const payload = data(deliveredFor(path, leaves)[0]);
    expect(payload).toEqual({
      alert: {
        id: leaves,
        config: { zoneId: north },
        companyUid: c.companyUid,
        title: 'Rule leaves_zone',
        description: 'About leaves_zone',
        message: `${w.name} left zone North depot at ${hhmm(t0 + 505_000)}`,
        action: 'leaves_zone',
        actionCode: 9,
        type: 1,
        tsCreated: expect.any(Number),
      },
      member: { uid: w.uid, username: w.username, name: w.name },
      zone: { id: north, name: 'North depot' },
      ts: t0 + 505_000, // our extension: when the condition occurred (the firing's ts)
    });
    expect(data(deliveredFor(path, danger)[0])).toMatchObject({
      alert: { action: 'enters_danger_zone', actionCode: 11, message: `${w.name} entered danger zone Quarry at ${hhmm(t0 + 905_000)}` },
      zone: { id: quarry, name: 'Quarry' },
    });
    // the firing's id is the form id
    const [row] = await db.query(`SELECT id FROM alert_firings WHERE company_id = $1 AND rule_id = $2`, [c.companyUid, leaves]);
    expect(deliveredFor(path, leaves)[0].form.id).toBe(row.id);
    // idempotent: the consumer run again (twice) for the same fixes writes nothing new
    const count = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*) FROM alert_firings WHERE company_id = $1)::int AS firings,
                  (SELECT count(*) FROM outbox_events WHERE company_id = $1)::int AS events,
                  (SELECT row_to_json(s)::text FROM alert_member_states s WHERE company_id = $1) AS state`,
          [c.companyUid],
        )
      )[0];
    const before = await count();
    const pass = geofencePassWithAlerts();
    const task = { companyId: c.companyUid, memberId: w.uid, fromTs: fixes[0].ts, toTs: fixes[fixes.length - 1].ts };
    await pass.onFixes(task);
    await pass.onFixes(task);
    expect(await count()).toEqual(before);

    // stored for the report and getalertfirings
    const listed = await action<{ firings: unknown[] }>(api, 'getalertfirings', { ruleId: leaves }, { key: c.key });
    expect(listed.body).toEqual({
      status: 0,
      firings: [
        {
          id: row.id,
          ruleId: leaves,
          action: 'leaves_zone',
          memberUid: w.uid,
          zoneId: north,
          message: `${w.name} left zone North depot at ${hhmm(t0 + 505_000)}`,
          ts: t0 + 505_000,
        },
      ],
    });
  });

  it('one pass over members of two companies at the same spot: each fires its own company’s rules, names its own zones, checks in at its own places', async () => {
    const a = await setup(2);
    const b = await setup(1);
    const north = await addZone(a.c, 'North depot', CENTER, 200);
    const south = await addZone(b.c, 'South yard', CENTER, 200);
    const entersA = await addRule(a.c, 'enters_zone', { zoneId: north });
    const entersB = await addRule(b.c, 'enters_zone', { zoneId: south });
    const lowB = await addRule(b.c, 'battery_low');
    const depot = await addPlace(a.c, 'Warehouse', CENTER, 100);
    const t0 = Date.now() - 30 * MIN;
    // 1.5 km east for a minute, then at the centre for five, the last fix with a low battery
    const fixes = [
      ...stay(CENTER, t0, 0, 60, 1500, { bat: 50 }),
      ...stay(CENTER, t0, 65, 360, 10, { bat: 50 }),
      ...stay(CENTER, t0, 365, 365, 10, { bat: 5 }),
    ];
    const members = [...a.ws.map((w) => ({ c: a.c, w })), { c: b.c, w: b.ws[0] }];
    // stored straight into the fix history (test set-up): no task is enqueued, so the pass below is the only one
    for (const { c, w } of members) {
      await db.query(
        `INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, bat, received_at)
         SELECT $1, $2, u.ts, u.lat, u.lng, u.acc, u.bat, u.ts FROM unnest($3::bigint[], $4::float8[], $5::float8[], $6::int[], $7::int[]) AS u(ts, lat, lng, acc, bat)`,
        [
          c.companyUid,
          w.uid,
          fixes.map((f) => f.ts),
          fixes.map((f) => f.lat),
          fixes.map((f) => f.lng),
          fixes.map((f) => f.acc),
          fixes.map((f) => f.bat),
        ],
      );
    }
    const pass = geofencePassWithAlerts();
    const last = fixes[fixes.length - 1].ts;
    // the member of company b twice (two tasks of one member in a pass are one)
    const tasks = [...members, members[2]].map(({ c, w }) => ({ companyId: c.companyUid, memberId: w.uid, fromTs: t0, toTs: last }));
    await pass.onFixesBatch(tasks);

    const pairs = async (c: TestCompany) =>
      ((await firings(c)) as Array<{ ruleId: string; memberId: string; zoneId: string | null }>)
        .map((f) => [f.ruleId, f.memberId, f.zoneId])
        .sort();
    expect(await pairs(a.c)).toEqual(
      [
        [entersA, a.ws[0].uid, north],
        [entersA, a.ws[1].uid, north],
      ].sort(),
    );
    expect(await pairs(b.c)).toEqual(
      [
        [entersB, b.ws[0].uid, south],
        [lowB, b.ws[0].uid, null],
      ].sort(),
    );
    const visits = async (c: TestCompany) =>
      (
        await db.query(`SELECT member_id AS "memberId", place_id AS "placeId" FROM checkins WHERE company_id = $1 ORDER BY member_id`, [
          c.companyUid,
        ])
      ).map((r: { memberId: string; placeId: string }) => [r.memberId, r.placeId]);
    expect(await visits(a.c)).toEqual([...a.ws].sort((x, y) => (x.uid < y.uid ? -1 : 1)).map((w) => [w.uid, depot.id]));
    expect(await visits(b.c)).toEqual([]);
    // every member evaluated up to its last fix, in both states
    for (const table of ['geofence_states', 'alert_member_states']) {
      const rows = await db.query(`SELECT member_id, evaluated_ts::float8 AS ts FROM ${table} WHERE company_id = ANY($1::text[])`, [
        [a.c.companyUid, b.c.companyUid],
      ]);
      expect(rows.map((r: { ts: number }) => r.ts)).toEqual([last, last, last]);
    }
    // delivered to each company's own receiver, naming its own zone
    await receiver.waitFor(a.path, 2);
    await receiver.waitFor(b.path, 2);
    await quiet();
    expect(receiver.at(a.path).map((r) => data(r).zone)).toEqual([
      { id: north, name: 'North depot' },
      { id: north, name: 'North depot' },
    ]);
    expect(deliveredFor(b.path, entersB).map((r) => data(r).zone)).toEqual([{ id: south, name: 'South yard' }]);
    expect(deliveredFor(b.path, lowB)).toHaveLength(1);
  });

  it('battery_low fires below the threshold once, re-arms at threshold + 2, and a fix without bat changes nothing', async () => {
    const { c, ws, path } = await setup();
    const [w] = ws;
    const rule = await addRule(c, 'battery_low'); // default threshold 15
    const low10 = await addRule(c, 'battery_low', { threshold: 10 });
    const t0 = Date.now() - 30 * MIN;
    const bats = [50, 15, 14, 12, undefined, 16, 10, 17, 13, 9];
    const fixes = bats.map((bat, i) => ({ ...stay(CENTER, t0, i * 10, i * 10, 0)[0], ...(bat === undefined ? {} : { bat }) }));
    await push(w, c, fixes, { batch: 3 });
    await receiver.waitFor(path, 3);
    await quiet();
    const stored = (await firings(c)) as Array<{ ruleId: string; occurrence: string; message: string }>;
    expect(stored.map((f) => [f.ruleId, f.occurrence])).toEqual([
      [rule, String(t0 + 20_000)], // 14 < 15
      [rule, String(t0 + 80_000)], // re-armed by 17 at 70 s, 13 fires
      [low10, String(t0 + 90_000)], // 10 is not below 10; 9 is
    ]);
    expect(receiver.at(path)).toHaveLength(3);
    expect(data(deliveredFor(path, rule)[0])).toMatchObject({
      alert: { action: 'battery_low', actionCode: 12, type: 1, config: { threshold: 15 } },
      member: { uid: w.uid },
    });
    expect(stored[0].message).toMatch(new RegExp(`^${w.name}'s battery is at 14 % \\(\\d\\d:\\d\\d\\)$`));
  });

  it('checks_in / checks_out / checks_any fire with the geofence check, with place and checkType; other places do not', async () => {
    const { c, ws, path } = await setup();
    const [w] = ws;
    const depot = await addPlace(c, 'Warehouse', CENTER, 100);
    const other = await addPlace(c, 'Elsewhere', offset(CENTER, 3000), 100);
    const ins = await addRule(c, 'checks_in', { placeId: depot.id });
    const outs = await addRule(c, 'checks_out'); // any place
    const elsewhere = await addRule(c, 'checks_any', { placeId: other.id });
    const t0 = Date.now() - 30 * MIN;
    const fixes = [...stay(CENTER, t0, 0, 60, 1500), ...stay(CENTER, t0, 65, 300, 30), ...stay(CENTER, t0, 305, 400, 1500)];
    await push(w, c, fixes, { table: 'geofence_states' });
    await receiver.waitFor(path, 2);
    await quiet();
    expect(receiver.at(path)).toHaveLength(2);
    expect(deliveredFor(path, elsewhere)).toHaveLength(0);
    const inData = data(deliveredFor(path, ins)[0]);
    expect(inData).toMatchObject({
      alert: { id: ins, action: 'checks_in', actionCode: 1, type: 1, config: { placeUid: depot.id } },
      member: { uid: w.uid, username: w.username, name: w.name },
      place: expect.objectContaining({ uid: depot.id, name: 'Warehouse', address: 'Trg 1', radius: 100, location: CENTER }),
      checkType: 'IN',
    });
    expect(inData.alert.message).toMatch(new RegExp(`^${w.name} checked in at Warehouse at \\d\\d:\\d\\d$`));
    expect(data(deliveredFor(path, outs)[0])).toMatchObject({ checkType: 'OUT', place: { uid: depot.id } });
    expect(((await firings(c)) as Array<{ occurrence: string }>).map((f) => f.occurrence)).toEqual([
      `${depot.id}:IN:${t0 + 65_000}`,
      `${depot.id}:OUT:${t0 + 305_000}`,
    ]);
  });

  it('a window limits event-driven rules to its days and hours (company time zone)', async () => {
    const { c, ws, path } = await setup();
    const [w] = ws;
    const t0 = Date.now() - 30 * MIN;
    const at = (s: number) => t0 + s * 1000;
    // the window covers the minute of the first low fix's hour only on another weekday
    const day = dayInZone(at(0), ZONE);
    const iso = ((new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100)).getUTCDay() + 6) % 7) + 1;
    const otherDay = (iso % 7) + 1;
    const closed = await addRule(c, 'battery_low', { window: { days: [otherDay], start: 0, end: 2359 } });
    const open = await addRule(c, 'battery_low', { window: { days: [1, 2, 3, 4, 5, 6, 7], start: 0, end: 2359 } });
    await push(w, c, [{ ...stay(CENTER, t0, 0, 0, 0)[0], bat: 5 }]);
    await receiver.waitFor(path, 1);
    await quiet();
    expect(deliveredFor(path, open)).toHaveLength(1);
    expect(deliveredFor(path, closed)).toHaveLength(0);
  });

  /** Yesterday in the company zone (YYYYMMDD) and the instant of HH:MM on it. */
  const yesterday = () => dayInZone(Date.now() - 24 * 3_600_000, ZONE);
  const onDay = (day: number, hhmm: number) => zonedDayTimeToMs(day, Math.floor(hhmm / 100) * 60 + (hhmm % 100), ZONE);
  const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

  it('no_check_in / no_check_out / no_check_any fire at the window end for members without the check, once, with the deadline payload', async () => {
    const { c, ws, path } = await setup(2);
    const [a, b] = ws;
    const day = yesterday();
    const window = { days: ALL_DAYS, start: 800, end: 900 };
    const place = await addPlace(c, 'Warehouse', CENTER, 100);
    // created after the day before's deadline (else the lookback would fire that one too)
    const createdAt = onDay(day, 900) - 12 * 3_600_000;
    const noIn = await addRule(c, 'no_check_in', { window, placeId: place.id, createdAt });
    const noOut = await addRule(c, 'no_check_out', { window, createdAt });
    const noAny = await addRule(c, 'no_check_any', { window, createdAt });
    // a checked in at 08:10 (still inside at 09:00); b never checked in
    await db.query(`INSERT INTO checkins (company_id, id, member_id, place_id, in_ts) VALUES ($1, $2, $3, $4, $5)`, [
      c.companyUid,
      newId(),
      a.uid,
      place.id,
      onDay(day, 810),
    ]);
    const deadline = onDay(day, 900);
    await tick(deadline - MIN); // before the deadline: nothing
    await quiet();
    expect(await firings(c)).toEqual([]);
    await tick(deadline + MIN);
    await tick(deadline + 2 * MIN); // a second tick: nothing new
    await receiver.waitFor(path, 4);
    await quiet();
    const stored = (await firings(c)) as Array<{ ruleId: string; memberId: string; occurrence: string; ts: number }>;
    const pairs = stored
      .map((f) => `${f.ruleId === noIn ? 'in' : f.ruleId === noOut ? 'out' : 'any'}:${f.memberId === a.uid ? 'a' : 'b'}`)
      .sort();
    expect(pairs).toEqual(['any:b', 'in:b', 'out:a', 'out:b']);
    expect(stored.every((f) => f.occurrence === String(day) && f.ts === deadline)).toBe(true);
    expect(receiver.at(path)).toHaveLength(4);
    const inPayload = data(deliveredFor(path, noIn)[0]);
    expect(inPayload).toMatchObject({
      alert: {
        action: 'no_check_in',
        actionCode: 4,
        type: 2,
        config: { placeUid: place.id, window },
        message: `${b.name} has not checked in at Warehouse by 09:00`,
      },
      member: { uid: b.uid },
      place: { uid: place.id, name: 'Warehouse' },
    });
    expect(data(deliveredFor(path, noAny)[0]).alert.message).toBe(`${b.name} has not checked in or out by 09:00`);
  });

  it('no_check_*: not on days outside the window, not for deadlines before the rule existed, not at a deleted place; a missed tick fires late', async () => {
    const { c, ws, path } = await setup();
    const [w] = ws;
    const day = yesterday();
    const iso = ((new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100)).getUTCDay() + 6) % 7) + 1;
    const deadline = onDay(day, 900);
    const otherDays = await addRule(c, 'no_check_in', { window: { days: ALL_DAYS.filter((d) => d !== iso), start: 800, end: 900 } });
    const tooNew = await addRule(c, 'no_check_in', { window: { days: ALL_DAYS, start: 800, end: 900 }, createdAt: deadline + 1000 });
    const late = await addRule(c, 'no_check_in', { window: { days: ALL_DAYS, start: 800, end: 900 } });
    // a rule whose place was deleted watches nothing
    const gone = await addPlace(c, 'Gone', CENTER);
    const atGone = await addRule(c, 'no_check_in', { window: { days: ALL_DAYS, start: 800, end: 900 }, placeId: gone.id });
    expect((await action(api, 'deleteplace', { uid: gone.id }, { key: c.key })).body.status).toBe(0);
    await tick(deadline + 5 * 3_600_000); // five hours late: the lookback still sees 09:00
    await receiver.waitFor(path, 1);
    await quiet();
    expect(deliveredFor(path, late)).toHaveLength(1);
    expect(deliveredFor(path, otherDays)).toHaveLength(0);
    expect(deliveredFor(path, tooNew)).toHaveLength(0);
    expect(deliveredFor(path, atGone)).toHaveLength(0);
    expect(data(deliveredFor(path, late)[0]).member.uid).toBe(w.uid);
  });

  it('idle fires once per still period after the interval while tracking, re-arms when the member moves; a moving member never', async () => {
    const { c, ws, path } = await setup(2);
    const [still, mover] = ws;
    const rule = await addRule(c, 'idle', { interval: 30 * MIN });
    const t0 = Date.now() - 4 * 3_600_000;
    const at = (m: number) => t0 + m * MIN;
    // still (jitter within 50 m) for 40 min
    const stage1 = Array.from({ length: 41 }, (_, i) => ({ ts: at(i), ...offset(CENTER, (i % 3) * 10), acc: 5 }));
    await push(still, c, stage1, { tracking: true });
    // the mover drives 100 m a minute
    await push(
      mover,
      c,
      Array.from({ length: 41 }, (_, i) => ({ ts: at(i), ...offset(CENTER, i * 100, 0), acc: 5 })),
      { tracking: true },
    );
    await tick(at(20)); // 20 min still: not yet
    await quiet();
    expect(await firings(c)).toEqual([]);
    await tick(at(41));
    await tick(at(42));
    await receiver.waitFor(path, 1);
    // moves 200 m, then still again for 40 min
    const stage2 = Array.from({ length: 41 }, (_, i) => ({ ts: at(50 + i), ...offset(CENTER, 200 + (i % 2) * 5), acc: 5 }));
    await push(still, c, stage2);
    await push(
      mover,
      c,
      Array.from({ length: 41 }, (_, i) => ({ ts: at(50 + i), ...offset(CENTER, i * 100, 90), acc: 5 })),
    );
    await tick(at(95));
    await receiver.waitFor(path, 2);
    await quiet();
    const stored = (await firings(c)) as Array<{ memberId: string; occurrence: string; ts: number; message: string }>;
    expect(stored.map((f) => [f.memberId, f.occurrence, f.ts])).toEqual([
      [still.uid, String(at(0)), at(30)],
      [still.uid, String(at(50)), at(80)],
    ]);
    expect(stored[0].message).toMatch(new RegExp(`^${still.name} has been idle for 30 min since \\d\\d:\\d\\d$`));
    expect(data(deliveredFor(path, rule)[0])).toMatchObject({
      alert: { action: 'idle', actionCode: 7, type: 2, interval: 30 * MIN, config: { interval: 30 * MIN } },
      member: { uid: still.uid },
    });
    expect(receiver.at(path)).toHaveLength(2);
  });

  it('no_connection_to_device fires once per silence while tracking, re-arms on a new fix; tracking off never', async () => {
    const { c, ws, path } = await setup(2);
    const [on, off] = ws;
    const rule = await addRule(c, 'no_connection_to_device', { interval: 15 * MIN });
    const t0 = Date.now() - 3 * 3_600_000;
    const at = (m: number) => t0 + m * MIN;
    await push(on, c, [{ ts: at(0), ...CENTER, acc: 5 }], { tracking: true, table: 'geofence_states' });
    await push(off, c, [{ ts: at(0), ...CENTER, acc: 5 }], { tracking: false, table: 'geofence_states' });
    await tick(at(10));
    await quiet();
    expect(await firings(c)).toEqual([]);
    await tick(at(20));
    await tick(at(25));
    await receiver.waitFor(path, 1);
    await push(on, c, [{ ts: at(30), ...CENTER, acc: 5 }], { table: 'geofence_states' });
    await tick(at(40)); // 10 min after the new fix: not yet
    await tick(at(50));
    await receiver.waitFor(path, 2);
    await quiet();
    const stored = (await firings(c)) as Array<{ memberId: string; occurrence: string; message: string }>;
    expect(stored.map((f) => [f.memberId, f.occurrence])).toEqual([
      [on.uid, String(at(0))],
      [on.uid, String(at(30))],
    ]);
    expect(stored[0].message).toMatch(new RegExp(`^${on.name}'s device has sent nothing for 15 min \\(last at \\d\\d:\\d\\d\\)$`));
    expect(data(deliveredFor(path, rule)[0])).toMatchObject({ alert: { action: 'no_connection_to_device', actionCode: 10, type: 2 } });
    expect(receiver.at(path)).toHaveLength(2);
  });

  it('targets: members and teams; inactive rules and deactivated members never; other companies never (tenant isolation)', async () => {
    const { c, ws, path } = await setup(3);
    const [a, b, d] = ws;
    const other = await setup(1);
    const day = yesterday();
    const window = { days: ALL_DAYS, start: 800, end: 900 };
    expect((await action(api, 'editcompany', { teams_config: [{ id: 7, name: 'North' }] }, { key: c.key })).body.status).toBe(0);
    await db.query(`UPDATE members SET teams = '[7]' WHERE company_id = $1 AND id = $2`, [c.companyUid, b.uid]);
    const forA = await addRule(c, 'no_check_in', { window, members: [a.uid] });
    const forTeam = await addRule(c, 'no_check_in', { window, teams: [7] });
    const inactive = await addRule(c, 'no_check_in', { window, active: false });
    const everyone = await addRule(c, 'no_check_in', { window });
    await db.query(`UPDATE members SET active_status = 'deactivated' WHERE company_id = $1 AND id = $2`, [c.companyUid, d.uid]);
    // the other company's rule made to name this company's member (SQL: createalert refuses it): never fires for them
    const foreign = await addRule(other.c, 'no_check_in', { window });
    await db.query(`UPDATE alert_rules SET members = jsonb_build_array($2::text) WHERE id = $1`, [foreign, a.uid]);
    await tick(onDay(day, 900) + MIN);
    await receiver.waitFor(path, 4);
    await quiet();
    const stored = (await firings(c)) as Array<{ ruleId: string; memberId: string }>;
    const got = stored.map((f) => `${f.ruleId}:${f.memberId}`).sort();
    expect(got).toEqual([`${forA}:${a.uid}`, `${forTeam}:${b.uid}`, `${everyone}:${a.uid}`, `${everyone}:${b.uid}`].sort());
    expect(stored.some((f) => f.ruleId === inactive)).toBe(false);
    const otherFirings = (await firings(other.c)) as Array<{ ruleId: string; memberId: string }>;
    expect(otherFirings.filter((f) => f.ruleId === foreign && f.memberId !== other.ws[0].uid)).toEqual([]);
    expect(receiver.at(other.path).every((r) => data(r).member.uid === other.ws[0].uid)).toBe(true);
    expect(receiver.at(path)).toHaveLength(4);
  });

  it('two workers running ticks at once: each firing exactly once', async () => {
    const { c, ws, path } = await setup(5);
    const second = await startWorker(
      'worker-2',
      {
        QUEUE_PREFIX: PREFIX,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RECONCILE_MS: '500',
        QUEUE_LOCK_MS: '5000',
        ALERTS_TICK_MS: String(24 * 3_600_000),
      },
      (sql, params) => db.query(sql, params),
    );
    try {
      const rule = await addRule(c, 'no_check_any', { window: { days: ALL_DAYS, start: 800, end: 900 } });
      const now = onDay(yesterday(), 900) + MIN;
      // eight ticks through the queue (both workers take them) and, at the same time, six ticks racing
      // in this process on a pool of connections: each occurrence still stored and announced once
      const clock = new AlertsClock(
        new AlertFiringsRepository(db),
        new RuleTargetsRead(db),
        new ClockCandidatesRead(db),
        writer(),
        api.app.get(OutboxService),
      );
      await Promise.all([...Array.from({ length: 8 }, () => tick(now)), ...Array.from({ length: 6 }, () => clock.tick(now))]);
      await receiver.waitFor(path, 5);
      await quiet();
      const stored = (await firings(c)) as Array<{ ruleId: string; memberId: string }>;
      expect(stored).toHaveLength(5);
      expect(new Set(stored.map((f) => f.memberId))).toEqual(new Set(ws.map((w) => w.uid)));
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE company_id = $1 AND action = 'alerttriggered'`, [
        c.companyUid,
      ]);
      expect(n).toBe(5);
      expect(deliveredFor(path, rule)).toHaveLength(5);
    } finally {
      await second.stop();
    }
  });

  it('an emptied Redis loses no scheduled evaluation: every worker re-creates the tick schedule', async () => {
    const redis = await startRedisServer();
    const prefix = `${PREFIX}-private`;
    let worker: Child | undefined;
    try {
      worker = await startWorker(
        'worker-private',
        {
          QUEUE_PREFIX: prefix,
          REDIS_URL: redis.url,
          WEBHOOK_ALLOW_PRIVATE: 'true',
          WEBHOOK_RECONCILE_MS: '500',
          QUEUE_LOCK_MS: '5000',
          ALERTS_TICK_MS: '1000',
        },
        (sql, params) => db.query(sql, params),
      );
      const { c, ws } = await setup(2);
      const [first, second] = ws;
      // the first member's device fell silent 5 min ago (rule: 1 min); the real clock's ticks fire it
      await push(first, c, [{ ts: Date.now() - 5 * MIN, ...CENTER, acc: 5 }], { tracking: true, table: 'geofence_states' });
      const silent = await addRule(c, 'no_connection_to_device', { interval: MIN, members: [first.uid] });
      const firedFor = async (ruleId: string) =>
        (await db.query(`SELECT count(*)::int AS n FROM alert_firings WHERE company_id = $1 AND rule_id = $2`, [c.companyUid, ruleId]))[0]
          .n as number;
      await waitFor('scheduled tick', async () => (await firedFor(silent)) === 1, { timeoutMs: 20_000, intervalMs: 200 });

      await withRedis(redis.url, async (r) => {
        await r.flushall();
        expect(await r.dbsize()).toBe(0);
      });
      // a condition that arises after Redis came back empty still fires from the schedule
      await push(second, c, [{ ts: Date.now() - 5 * MIN, ...CENTER, acc: 5 }], { tracking: true, table: 'geofence_states' });
      const after = await addRule(c, 'no_connection_to_device', { interval: MIN, members: [second.uid] });
      await waitFor('tick after the flush', async () => (await firedFor(after)) === 1, { timeoutMs: 20_000, intervalMs: 200 });
      await withRedis(redis.url, async (r) => expect((await r.keys(`${prefix}:alerts:*`)).length).toBeGreaterThan(0));
      expect(await firedFor(silent)).toBe(1);
    } finally {
      await worker?.stop();
      await redis.child.stop();
    }
  });
});
