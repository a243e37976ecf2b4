import { dayInZone, newId } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * getjobs over real HTTP against real PostgreSQL: one case per filter family of the spec's table,
 * CONTRACTS.md's defaults that need the caller's key (today in the company's zone), `compact` and the
 * views' fields, workers' own-jobs rule and the refusal of bad values. The full filter matrix (each
 * filter's SQL semantics, ordering, paging and limits) runs without HTTP in
 * `libs/jobs/src/jobs-search.int-spec.ts`.
 */

type Job = Record<string, any> & { id: string };
type Member = { uid: string; username: string; key: string };

/** A fixed, far-future day: never "today", so only explicit `day` filters see it. */
const D = 20300115;
const D2 = 20300116;

/** YYYYMMDD plus n calendar days. */
function addDays(day: number, n: number): number {
  const d = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100) + n * 86_400_000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

const names = (jobs: Job[]) => jobs.map((j) => j.destinationName as string);
const sortedNames = (jobs: Job[]) => names(jobs).sort();

describe('getjobs', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  async function createJobs(company: TestCompany, jobs: object[], extra: Record<string, unknown> = {}): Promise<Job[]> {
    const res = await action<{ jobs: Job[] }>(api, 'createjobs', { jobs, ...extra }, { key: company.key });
    if (res.body.status !== 0) throw new Error(`createjobs failed: ${JSON.stringify(res.body)}`);
    return res.body.jobs;
  }

  async function getJobs(key: string, data: Record<string, unknown>): Promise<Job[]> {
    const res = await action<{ jobs: Job[] }>(api, 'getjobs', data, { key });
    expect({ http: res.http, status: res.body.status, error: res.body.error }).toEqual({ http: 200, status: 0, error: undefined });
    return res.body.jobs;
  }

  /**
   * Runs `check(today)` with today's day in `zone`; when the day rolled over during the check (a
   * test run at midnight in that zone), runs it once more instead of failing.
   */
  async function atStableToday(zone: string, check: (today: number) => Promise<void>): Promise<void> {
    const today = dayInZone(Date.now(), zone);
    try {
      await check(today);
    } catch (err) {
      if (dayInZone(Date.now(), zone) === today) throw err;
      await check(dayInZone(Date.now(), zone));
    }
  }

  describe('day default: today in the company time zone', () => {
    it.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])('%s: without day only the jobs of today there', async (zone) => {
      const company = await createCompany(api, { timezone: zone });
      const today = dayInZone(Date.now(), zone);
      const utcDay = dayInZone(Date.now(), 'UTC');
      const days = [...new Set([addDays(today, -1), today, addDays(today, 1), utcDay, addDays(utcDay, -1), addDays(utcDay, 1), 0])];
      await createJobs(
        company,
        days.map((day) => ({ destinationName: `d${day}`, day })),
      );
      await atStableToday(zone, async (t) => {
        const got = await getJobs(company.key, {});
        expect(names(got)).toEqual([`d${t}`]);
        if (utcDay !== t) expect(names(got)).not.toContain(`d${utcDay}`);
      });
    });

    it('one of the two far zones is always on another day than UTC, so the check above bites', () => {
      const now = Date.now();
      const utc = dayInZone(now, 'UTC');
      expect([dayInZone(now, 'Pacific/Kiritimati'), dayInZone(now, 'Pacific/Pago_Pago')].some((d) => d !== utc)).toBe(true);
    });

    it('follows the company zone after editcompany changes it', async () => {
      const company = await createCompany(api, { timezone: 'Pacific/Kiritimati' });
      const now = Date.now();
      const east = dayInZone(now, 'Pacific/Kiritimati');
      const west = dayInZone(now, 'Pacific/Pago_Pago'); // always a day or two before Kiritimati
      await createJobs(company, [
        { destinationName: 'east', day: east },
        { destinationName: 'west', day: west },
      ]);
      await atStableToday('Pacific/Kiritimati', async () => {
        expect(names(await getJobs(company.key, {}))).toEqual(['east']);
      });
      expect((await action(api, 'editcompany', { timezone: 'Pacific/Pago_Pago' }, { key: company.key })).body.status).toBe(0);
      await atStableToday('Pacific/Pago_Pago', async (t) => {
        const got = await getJobs(company.key, {});
        expect(names(got)).toEqual(t === west ? ['west'] : []);
      });
    });

    it("a member's own timezone does not change the default", async () => {
      const company = await createCompany(api, { timezone: 'Pacific/Kiritimati' });
      const dispatcher = await createMember(api, company, { role: 'operator' });
      const edited = await action(api, 'editaccount', { uid: dispatcher.uid, timezone: 'Pacific/Pago_Pago' }, { key: company.key });
      expect(edited.body.status).toBe(0);
      const now = Date.now();
      await createJobs(company, [
        { destinationName: 'company', day: dayInZone(now, 'Pacific/Kiritimati') },
        { destinationName: 'member', day: dayInZone(now, 'Pacific/Pago_Pago') },
      ]);
      await atStableToday('Pacific/Kiritimati', async () => {
        expect(names(await getJobs(dispatcher.key, {}))).toEqual(['company']);
      });
    });
  });

  describe('day filter and when the today default applies', () => {
    let company: TestCompany;
    let byName: Record<string, Job>;
    let today: number;
    const zone = 'Pacific/Kiritimati';

    beforeAll(async () => {
      company = await createCompany(api, { timezone: zone });
      today = dayInZone(Date.now(), zone);
      const jobs = await createJobs(company, [
        { destinationName: 'today', day: today, orderId: 11 },
        { destinationName: 'onD', day: D, orderId: 22 },
        { destinationName: 'onD2', day: D2, orderId: 33 },
        { destinationName: 'undated', day: 0, orderId: 44 },
      ]);
      byName = Object.fromEntries(jobs.map((j) => [j.destinationName, j]));
    });

    it('an explicit day selects that day only', async () => {
      expect(names(await getJobs(company.key, { day: D }))).toEqual(['onD']);
      expect(names(await getJobs(company.key, { day: D2 }))).toEqual(['onD2']);
      expect(names(await getJobs(company.key, { day: 20300117 }))).toEqual([]);
    });

    it('id, ids, orderId and orderIds lift the today default', async () => {
      expect(names(await getJobs(company.key, { id: byName.onD.id }))).toEqual(['onD']);
      expect(names(await getJobs(company.key, { id: byName.undated.id }))).toEqual(['undated']);
      expect(sortedNames(await getJobs(company.key, { ids: [byName.onD.id, byName.onD2.id, byName.today.id] }))).toEqual([
        'onD',
        'onD2',
        'today',
      ]);
      expect(names(await getJobs(company.key, { orderId: 22 }))).toEqual(['onD']);
      expect(sortedNames(await getJobs(company.key, { orderIds: [33, 44] }))).toEqual(['onD2', 'undated']);
    });

  });

  describe('worker filter', () => {
    let company: TestCompany;
    let w1: Member, w2: Member;

    beforeAll(async () => {
      company = await createCompany(api);
      w1 = await createMember(api, company, { role: 'worker' });
      w2 = await createMember(api, company, { role: 'worker' });
      await createJobs(company, [
        { destinationName: 'w1', day: D, worker: w1.username },
        { destinationName: 'w2', day: D, receiverUid: w2.uid },
        { destinationName: 'nobody', day: D },
        { destinationName: 'w1-other-day', day: D2, worker: w1.username },
      ]);
    });

    it('a username selects that worker’s jobs, case-insensitively', async () => {
      expect(names(await getJobs(company.key, { day: D, worker: w1.username }))).toEqual(['w1']);
      expect(names(await getJobs(company.key, { day: D, worker: w1.username.toUpperCase() }))).toEqual(['w1']);
      expect(names(await getJobs(company.key, { day: D, worker: w2.username }))).toEqual(['w2']);
      expect(sortedNames(await getJobs(company.key, { day: -1, worker: w1.username }))).toEqual(['w1', 'w1-other-day']);
    });

  });

  describe('a worker sees only its own jobs', () => {
    let company: TestCompany;
    let w1: Member, w2: Member;
    let byName: Record<string, Job>;
    const zone = 'Pacific/Pago_Pago';

    beforeAll(async () => {
      company = await createCompany(api, { timezone: zone });
      w1 = await createMember(api, company, { role: 'worker' });
      w2 = await createMember(api, company, { role: 'worker' });
      const today = dayInZone(Date.now(), zone);
      const jobs = await createJobs(company, [
        { destinationName: 'mine', day: D, worker: w1.username, orderId: 7 },
        { destinationName: 'theirs', day: D, worker: w2.username, orderId: 7 },
        { destinationName: 'nobody', day: D, orderId: 7 },
        { destinationName: 'mine-later', day: D2, worker: w1.username },
        { destinationName: 'mine-today', day: today, worker: w1.username },
        { destinationName: 'theirs-today', day: today, worker: w2.username },
        { destinationName: 'nobody-today', day: today },
      ]);
      byName = Object.fromEntries(jobs.map((j) => [j.destinationName, j]));
    });

    it('the today default, ids, orderId and sort are narrowed too', async () => {
      await atStableToday(zone, async () => {
        expect(names(await getJobs(w1.key, {}))).toEqual(['mine-today']);
      });
      expect(names(await getJobs(w1.key, { ids: [byName.mine.id, byName.theirs.id, byName.nobody.id] }))).toEqual(['mine']);
      expect(await getJobs(w1.key, { id: byName.theirs.id })).toEqual([]);
      expect(names(await getJobs(w1.key, { orderId: 7 }))).toEqual(['mine']);
      expect(sortedNames(await getJobs(w1.key, { sort: {} }))).toEqual(['mine', 'mine-later', 'mine-today']);
      expect(sortedNames(await getJobs(w1.key, { day: -1, worker: '*' }))).toEqual(['mine', 'mine-later', 'mine-today']);
      // staff see them all
      expect(sortedNames(await getJobs(company.key, { orderId: 7 }))).toEqual(['mine', 'nobody', 'theirs']);
    });
  });

  describe('team, orderId, orderIds', () => {
    let company: TestCompany;

    beforeAll(async () => {
      company = await createCompany(api);
      const teams = [
        { id: 1, name: 'North' },
        { id: 2, name: 'South' },
      ];
      expect((await action(api, 'editcompany', { teams_config: teams }, { key: company.key })).body.status).toBe(0);
      await createJobs(company, [
        { destinationName: 'north', day: D, teamId: 1, orderId: 100 },
        { destinationName: 'south', day: D, teamId: 2, orderId: 200 },
        { destinationName: 'none', day: D, orderId: 300 },
        { destinationName: 'north-later', day: D2, teamId: 1, orderId: 100 },
        { destinationName: 'big-order', day: 0, orderId: 9_007_199_254_740 },
      ]);
    });

    it('team selects that team only', async () => {
      expect(names(await getJobs(company.key, { day: D, team: 1 }))).toEqual(['north']);
      expect(names(await getJobs(company.key, { day: D, team: 2 }))).toEqual(['south']);
      expect(sortedNames(await getJobs(company.key, { day: -1, team: 1 }))).toEqual(['north', 'north-later']);
      expect(await getJobs(company.key, { day: D, team: 3 })).toEqual([]);
      expect(sortedNames(await getJobs(company.key, { day: D }))).toEqual(['none', 'north', 'south']);
    });

  });

  describe('progress filters and sort.status', () => {
    let company: TestCompany;
    const T = 1_800_000_000_000;
    const ALL = [
      'accepted',
      'failed',
      'rejected',
      'rejected-after-accept',
      'rejected-after-checkin',
      'scheduled',
      'started',
      'success',
      'success-after-checkin',
    ];

    beforeAll(async () => {
      company = await createCompany(api);
      await createJobs(company, [
        { destinationName: 'scheduled', day: D },
        { destinationName: 'accepted', day: D, tsAccepted: T },
        { destinationName: 'rejected', day: D, tsRejected: T },
        { destinationName: 'rejected-after-accept', day: D, tsAccepted: T, tsRejected: T + 1 },
        { destinationName: 'started', day: D, tsAccepted: T, tsCheckIn: T + 1 },
        { destinationName: 'rejected-after-checkin', day: D, tsCheckIn: T, tsRejected: T + 1 },
        { destinationName: 'success', day: D, tsDoneSuccess: T },
        { destinationName: 'success-after-checkin', day: D, tsCheckIn: T, tsCheckOut: T + 1, tsDoneSuccess: T + 2 },
        { destinationName: 'failed', day: D, tsAccepted: T, tsDoneFailed: T + 1 },
      ]);
    });

    it('progressSuccess 1 answers only jobs with tsDoneSuccess > 0; 0 (default) all', async () => {
      const got = await getJobs(company.key, { day: D, progressSuccess: 1 });
      expect(sortedNames(got)).toEqual(['success', 'success-after-checkin']);
      expect(got.every((j) => j.tsDoneSuccess > 0)).toBe(true);
      expect(sortedNames(await getJobs(company.key, { day: D, progressSuccess: 0 }))).toEqual(ALL);
      expect(sortedNames(await getJobs(company.key, { day: D }))).toEqual(ALL);
    });

    it('progressActive 1 answers only jobs neither done; 0 (default) all', async () => {
      const got = await getJobs(company.key, { day: D, progressActive: 1 });
      expect(sortedNames(got)).toEqual(['accepted', 'rejected', 'rejected-after-accept', 'rejected-after-checkin', 'scheduled', 'started']);
      expect(got.every((j) => j.tsDoneSuccess === 0 && j.tsDoneFailed === 0)).toBe(true);
      expect(sortedNames(await getJobs(company.key, { day: D, progressActive: 0 }))).toEqual(ALL);
      expect(await getJobs(company.key, { day: D, progressActive: 1, progressSuccess: 1 })).toEqual([]);
    });
  });

  describe('includeArchived', () => {
    let company: TestCompany;
    let archived: Job;

    beforeAll(async () => {
      company = await createCompany(api);
      const jobs = await createJobs(company, [
        { destinationName: 'live', day: D },
        { destinationName: 'archived', day: D },
      ]);
      archived = jobs[1];
      const res = await action(api, 'archivejobs', { jobs: { [archived.id]: {} } }, { key: company.key });
      expect(res.body.status).toBe(0);
    });

    it('1 includes them, with status "archived"', async () => {
      const got = await getJobs(company.key, { day: D, includeArchived: 1 });
      expect(sortedNames(got)).toEqual(['archived', 'live']);
      const byName = Object.fromEntries(got.map((j) => [j.destinationName, j]));
      expect(byName.archived.status).toBe('archived');
      expect(byName.live).not.toHaveProperty('status');
      expect(sortedNames(await getJobs(company.key, { sort: {}, includeArchived: 1 }))).toEqual(['archived', 'live']);
    });

    it('a lookup by id or ids answers an archived job too (docs/decisions.md)', async () => {
      const [byId] = await getJobs(company.key, { id: archived.id });
      expect(byId).toMatchObject({ id: archived.id, status: 'archived' });
      expect(names(await getJobs(company.key, { ids: [archived.id] }))).toEqual(['archived']);
    });
  });

  describe('compact', () => {
    let company: TestCompany;
    let worker: Member;
    const OMITTED = [
      'dispatcherName',
      'dispatcherUrl',
      'placeName',
      'placeUrl',
      'workerName',
      'assigneeName',
      'assigneeUsername',
      'workerEmail',
      'workerPhone',
    ];

    beforeAll(async () => {
      company = await createCompany(api);
      worker = await createMember(api, company, { role: 'worker', name: 'Willa Worker' });
      const edit = await action(
        api,
        'editaccount',
        { uid: worker.uid, email: 'willa@example.test', phone: '+386 41 000 111' },
        { key: company.key },
      );
      expect(edit.body.status).toBe(0);
      const placeId = newId();
      await db.query(
        `INSERT INTO places (id, company_id, name, radius, location, created_at)
         VALUES ($1, $2, 'Depot', 250, ST_SetSRID(ST_MakePoint(14.5058, 46.0569), 4326)::geography, $3)`,
        [placeId, company.companyUid, Date.now()],
      );
      await createJobs(company, [
        {
          destinationName: 'Compact',
          day: D,
          priority: 3,
          worker: worker.username,
          dispatcherUid: company.ownerUid,
          placeUid: placeId,
          customFields: [{ key: 'gate', val: '4' }],
          extra_number_1_val: 2.5,
        },
      ]);
    });

    it('the full format carries every field, the fields compact leaves out among them', async () => {
      const [full] = await getJobs(company.key, { day: D });
      expect(full).toMatchObject({
        workerName: 'Willa Worker',
        assigneeName: 'Willa Worker',
        assigneeUsername: worker.username,
        workerEmail: 'willa@example.test',
        workerPhone: '+386 41 000 111',
        placeName: 'Depot',
        radius: 250,
        textDispatcher: '',
        contactName: '',
        destinationLat: null,
        tsAccepted: 0,
      });
      expect(full.dispatcherName).not.toBe('');
      for (const k of OMITTED) expect(full).toHaveProperty(k);
      expect(await getJobs(company.key, { day: D, compact: false })).toEqual([full]);
    });

    it('compact: true leaves out the empty, zero and null fields and the named ones, and keeps the rest', async () => {
      const [full] = await getJobs(company.key, { day: D });
      const [compact] = await getJobs(company.key, { day: D, compact: true });
      for (const k of OMITTED) expect(compact).not.toHaveProperty(k);
      for (const [k, v] of Object.entries(compact)) {
        expect({ [k]: v }).not.toEqual({ [k]: null });
        expect({ [k]: v }).not.toEqual({ [k]: 0 });
        expect({ [k]: v }).not.toEqual({ [k]: '' });
        expect({ [k]: v }).not.toEqual({ [k]: [] });
        expect({ [k]: v }).toEqual({ [k]: full[k] });
      }
      // booleans (isTemplate: false) may go either way; every other non-empty field stays
      const empty = (v: unknown) => v === null || v === 0 || v === '' || (Array.isArray(v) && v.length === 0);
      const kept = Object.keys(full).filter((k) => !OMITTED.includes(k) && !empty(full[k]) && typeof full[k] !== 'boolean');
      expect(
        Object.keys(compact)
          .filter((k) => typeof compact[k] !== 'boolean')
          .sort(),
      ).toEqual(kept.sort());
      expect(compact).toMatchObject({
        id: full.id,
        destinationName: 'Compact',
        priority: 3,
        day: D,
        worker: worker.username,
        receiverUid: worker.uid,
        dispatcherUid: company.ownerUid,
        customFields: [{ key: 'gate', val: '4' }],
        extra_number_1_val: 2.5,
        radius: 250,
      });
      for (const k of ['textDispatcher', 'contactName', 'destinationLat', 'tsAccepted', 'tsDoneFailed', 'orderId', 'uidSecondary']) {
        expect(compact).not.toHaveProperty(k);
      }
    });
  });

  describe('templates', () => {
    let company: TestCompany;
    let templates: Job[];

    beforeAll(async () => {
      company = await createCompany(api);
      await createJobs(company, [{ destinationName: 'job', day: D }]);
      templates = await createJobs(
        company,
        [
          { destinationName: 'tpl-a', day: D },
          { destinationName: 'tpl-b', day: 0 },
        ],
        { isTemplate: true },
      );
    });

    it('templates: true answers only templates, ids tpl-<id>', async () => {
      const got = await getJobs(company.key, { templates: true });
      expect(sortedNames(got)).toEqual(['tpl-a', 'tpl-b']);
      for (const t of got) {
        expect(t.id).toMatch(/^tpl-[0-9A-Z]{26}$/);
        expect(t.isTemplate).toBe(true);
      }
      expect(got.map((t) => t.id).sort()).toEqual(templates.map((t) => t.id).sort());
      expect(names(await getJobs(company.key, { templates: true, id: templates[1].id }))).toEqual(['tpl-b']);
    });

  });

  describe('order without sort: number, then tsCreated', () => {
    let company: TestCompany;

    beforeAll(async () => {
      company = await createCompany(api);
      await createJobs(company, [
        { destinationName: 'A', day: D, number: 2, tsCreated: 1000 },
        { destinationName: 'B', day: D, number: 1, tsCreated: 3000 },
        { destinationName: 'C', day: D, number: 1, tsCreated: 2000 },
        { destinationName: 'D', day: D, number: 0, tsCreated: 5000 },
        { destinationName: 'E', day: D, number: 3, tsCreated: 500 },
        { destinationName: 'F', day: D, number: -5, tsCreated: 9000 },
        { destinationName: 'G', day: D, number: 1, tsCreated: 2500 },
      ]);
    });

    it('orders by number, ties by tsCreated', async () => {
      expect(names(await getJobs(company.key, { day: D }))).toEqual(['F', 'D', 'C', 'G', 'B', 'A', 'E']);
    });

  });

  describe('sort: field, ascending, limit, skip, from, until', () => {
    let company: TestCompany;
    let jobs: Job[];
    const BASE = 1_700_000_000_000;
    const DONE = 1_750_000_000_000;
    const N = 25;

    beforeAll(async () => {
      company = await createCompany(api);
      // created out of order; tsCreated, priority and number each order them differently
      const order = Array.from({ length: N }, (_, i) => (i * 7) % N);
      jobs = await createJobs(
        company,
        order.map((i) => ({
          destinationName: `j${String(i).padStart(2, '0')}`,
          day: [D, D2, 0][i % 3],
          tsCreated: BASE + i * 1000,
          priority: (i * 3) % 11,
          number: 100 - i,
          ...(i < 5 ? { tsDoneSuccess: DONE + (4 - i) * 1000 } : {}),
        })),
      );
      expect(jobs).toHaveLength(N);
    });

    const byTsCreated = () => [...jobs].sort((a, b) => a.tsCreated - b.tsCreated).map((j) => j.destinationName);

    async function pages(sort: Record<string, unknown>, limit: number): Promise<Job[][]> {
      const out: Job[][] = [];
      for (let skip = 0; skip < N + limit; skip += limit) out.push(await getJobs(company.key, { sort: { ...sort, limit, skip } }));
      return out;
    }

    it('defaults: field tsCreated, ascending, all days', async () => {
      expect(names(await getJobs(company.key, { sort: {} }))).toEqual(byTsCreated());
    });

    it('tsCreated ascending in pages of 10: pages do not overlap and cover all', async () => {
      const p = await pages({ field: 'tsCreated', ascending: true }, 10);
      expect(p.map((x) => x.length)).toEqual([10, 10, 5, 0]);
      const all = p.flat();
      expect(new Set(all.map((j) => j.id)).size).toBe(N);
      expect(names(all)).toEqual(byTsCreated());
    });

    it('from/until bound tsCreated as [from, until)', async () => {
      const got = await getJobs(company.key, { sort: { field: 'tsCreated', from: BASE + 5000, until: BASE + 10000 } });
      expect(names(got)).toEqual(['j05', 'j06', 'j07', 'j08', 'j09']);
      expect(names(await getJobs(company.key, { sort: { from: BASE + 24000 } }))).toEqual(['j24']);
      expect(names(await getJobs(company.key, { sort: { until: BASE + 1000 } }))).toEqual(['j00']);
      expect(await getJobs(company.key, { sort: { from: BASE + 3000, until: BASE + 3000 } })).toEqual([]);
    });

    it('sort composes with day and the other filters', async () => {
      const got = await getJobs(company.key, { day: D2, sort: { field: 'tsCreated', ascending: false, limit: 3 } });
      expect(names(got)).toEqual(['j22', 'j19', 'j16']);
      expect(sortedNames(await getJobs(company.key, { sort: { status: 4 } }))).toEqual(['j00', 'j01', 'j02', 'j03', 'j04']);
    });
  });

  describe('sort limit defaults to 100', () => {
    it('answers 100, the rest with skip, and up to 1,000 with limit', async () => {
      const company = await createCompany(api);
      await createJobs(
        company,
        Array.from({ length: 105 }, (_, i) => ({ destinationName: `j${i}`, day: D, tsCreated: 1_700_000_000_000 + i })),
      );
      const first = await getJobs(company.key, { sort: {} });
      expect(first).toHaveLength(100);
      expect(names(first)).toEqual(Array.from({ length: 100 }, (_, i) => `j${i}`));
      expect(names(await getJobs(company.key, { sort: { skip: 100 } }))).toEqual(['j100', 'j101', 'j102', 'j103', 'j104']);
      expect(await getJobs(company.key, { sort: { limit: 1000 } })).toHaveLength(105);
      expect(await getJobs(company.key, { day: D, sort: { field: 'number' } })).toHaveLength(100);
    });
  });

  describe('bad filter values', () => {
    let company: TestCompany;

    beforeAll(async () => {
      company = await createCompany(api);
      await createJobs(company, [{ destinationName: 'x', day: D }]);
    });

    it.each([
      [{ day: 20261332 }, 'data.day'],
      [{ day: 20260230 }, 'data.day'],
      [{ day: 2026011 }, 'data.day'],
      [{ day: '20260101' }, 'data.day'],
      [{ day: -2 }, 'data.day'],
      [{ day: 20300115.5 }, 'data.day'],
      [{ day: null }, 'data.day'],
      [{ id: '' }, 'data.id'],
      [{ id: 5 }, 'data.id'],
      [{ ids: 'abc' }, 'data.ids'],
      [{ ids: [5] }, 'data.ids'],
      [{ worker: 5 }, 'data.worker'],
      [{ team: -1 }, 'data.team'],
      [{ team: '1' }, 'data.team'],
      [{ orderId: -1 }, 'data.orderId'],
      [{ orderId: 1.5 }, 'data.orderId'],
      [{ orderIds: 100 }, 'data.orderIds'],
      [{ orderIds: [1, 'x'] }, 'data.orderIds'],
      [{ progressSuccess: 2 }, 'data.progressSuccess'],
      [{ progressSuccess: '1' }, 'data.progressSuccess'],
      [{ progressActive: -1 }, 'data.progressActive'],
      [{ includeArchived: 2 }, 'data.includeArchived'],
      [{ includeArchived: 'yes' }, 'data.includeArchived'],
      [{ compact: 'yes' }, 'data.compact'],
      [{ templates: 1 }, 'data.templates'],
      [{ sort: 'tsCreated' }, 'data.sort'],
      [{ sort: { field: 'nope' } }, 'data.sort.field'],
      [{ sort: { field: 'tsAssigned ; DROP TABLE jobs' } }, 'data.sort.field'],
      [{ sort: { ascending: 'yes' } }, 'data.sort.ascending'],
      [{ sort: { limit: 5000 } }, 'data.sort.limit'],
      [{ sort: { limit: 1001 } }, 'data.sort.limit'],
      [{ sort: { limit: 0 } }, 'data.sort.limit'],
      [{ sort: { limit: 2.5 } }, 'data.sort.limit'],
      [{ sort: { skip: -1 } }, 'data.sort.skip'],
      [{ sort: { from: -1 } }, 'data.sort.from'],
      [{ sort: { until: 'tomorrow' } }, 'data.sort.until'],
      [{ sort: { status: 6 } }, 'data.sort.status'],
      [{ sort: { status: -2 } }, 'data.sort.status'],
      [{ sort: { status: 'success' } }, 'data.sort.status'],
    ])('%j answers -1/400 naming %s', async (data, field) => {
      const res = await action(api, 'getjobs', data, { key: company.key });
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body).not.toHaveProperty('jobs');
      expect(res.body.error).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: \\S`));
    });

    it('an unknown key, also inside sort, is refused as an unknown field', async () => {
      expect(await action(api, 'getjobs', { dya: 20300115 }, { key: company.key })).toEqual({
        http: 400,
        body: { status: -1, error: 'data.dya: unknown field' },
      });
      expect(await action(api, 'getjobs', { sort: { feld: 'priority' } }, { key: company.key })).toEqual({
        http: 400,
        body: { status: -1, error: 'data.sort.feld: unknown field' },
      });
    });

    it('keys named like Object.prototype members are unknown fields too', async () => {
      for (const data of [{ toString: 1 }, { constructor: 1 }, { sort: { valueOf: 1 } }]) {
        const res = await action(api, 'getjobs', data, { key: company.key });
        expect({ http: res.http, status: res.body.status }).toEqual({ http: 400, status: -1 });
        expect(res.body.error).toMatch(/^data\.(sort\.)?(toString|constructor|valueOf): unknown field$/);
      }
    });

    it('the boundaries themselves are accepted', async () => {
      for (const data of [
        { day: 20240229 },
        { sort: { limit: 1000, skip: 0, status: -1, ascending: false, from: 0, until: 0 } },
        { sort: { limit: 1, status: 5 } },
        { progressSuccess: true, progressActive: false, includeArchived: 1 },
        { worker: '' },
        { orderIds: [0] },
      ]) {
        await getJobs(company.key, data);
      }
    });
  });
});
