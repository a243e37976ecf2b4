import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * The alert-rule actions and getalertfirings through HTTP (CONTRACTS.md "Alerts and zones", "Roles
 * for wave 2"; docs/alerts.md): each action's required and optional parameters, every validation
 * rule, editalert's merge, soft delete, tenant isolation and roles. Zones and firings are inserted
 * with SQL (createzone and the evaluator land separately).
 */
describe('alert rules', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  const call = <T = any>(name: string, data: unknown, key: string) => action<T>(api, name, data, { key });
  /** createalert that must succeed; the rule's view. */
  const create = async (key: string, data: Record<string, unknown>) => {
    const res = await call('createalert', data, key);
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.alert;
  };
  /** A call that must fail with -1/400 naming `message` (a substring of the error). */
  const refused = async (name: string, data: unknown, key: string, message: string) => {
    const res = await call(name, data, key);
    expect({ http: res.http, status: res.body.status }).toEqual({ http: 400, status: -1 });
    expect(res.body.error).toContain(message);
  };

  const SQUARE = 'POLYGON((14.50 46.05, 14.51 46.05, 14.51 46.06, 14.50 46.06, 14.50 46.05))';
  /** A zone row as the zones lib stores it. */
  const zone = async (company: TestCompany, opts: { danger?: boolean; deleted?: boolean } = {}) => {
    const id = newId();
    await db.query(
      `INSERT INTO zones (id, company_id, name, polygon, danger, created_at, deleted_at) VALUES ($1, $2, $3, ST_GeogFromText($4), $5, $6, $7)`,
      [
        id,
        company.companyUid,
        `Zone ${id.slice(-4)}`,
        `SRID=4326;${SQUARE}`,
        opts.danger ?? false,
        Date.now(),
        opts.deleted ? Date.now() : null,
      ],
    );
    return id;
  };
  const place = async (company: TestCompany, key = company.key) => {
    const res = await call<{ uid: string }>('createplace', { name: 'Depot', location: { lat: 46.05, lng: 14.5 } }, key);
    expect(res.body.status).toBe(0);
    return res.body.uid;
  };
  const WINDOW = { days: [5, 1, 2], start: 800, end: 1630 };

  describe('createalert', () => {
    it('answers {status, id, alert} with the rule object; defaults: title/description "", every worker, active', async () => {
      const company = await createCompany(api);
      const before = Date.now();
      const res = await call('createalert', { action: 'checks_in' }, company.key);
      expect(res.http).toBe(200);
      expect(res.body).toEqual({
        status: 0,
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        alert: {
          id: res.body.id,
          title: '',
          description: '',
          action: 'checks_in',
          actionCode: 1,
          type: 1,
          members: [],
          teams: [],
          active: true,
          tsCreated: expect.any(Number),
          tsSaved: res.body.alert.tsCreated,
        },
      });
      expect(res.body.alert.tsCreated).toBeGreaterThanOrEqual(before);
      const [row] = await db.query(`SELECT company_id, deleted_at FROM alert_rules WHERE id = $1`, [res.body.id]);
      expect(row).toEqual({ company_id: company.companyUid, deleted_at: null });
    });

    it('takes every action with its required parameters; numbers as docs/alerts.md lists them', async () => {
      const company = await createCompany(api);
      const z = await zone(company);
      const dz = await zone(company, { danger: true });
      const cases: Array<[string, Record<string, unknown>, number, number]> = [
        ['checks_in', {}, 1, 1],
        ['checks_out', {}, 2, 1],
        ['checks_any', {}, 3, 1],
        ['no_check_in', { window: WINDOW }, 4, 2],
        ['no_check_out', { window: WINDOW }, 5, 2],
        ['no_check_any', { window: WINDOW }, 6, 2],
        ['idle', { interval: 600_000 }, 7, 2],
        ['enters_zone', { zoneId: z }, 8, 1],
        ['leaves_zone', { zoneId: z }, 9, 1],
        ['no_connection_to_device', { interval: 3_600_000 }, 10, 2],
        ['enters_danger_zone', {}, 11, 1],
        ['battery_low', {}, 12, 1],
        ['none', {}, 13, 0],
      ];
      for (const [name, params, actionCode, type] of cases) {
        const alert = await create(company.key, { action: name, ...params });
        expect({ name, actionCode: alert.actionCode, type: alert.type }).toEqual({ name, actionCode, type });
        if (params.window) expect(alert.window).toEqual({ days: [1, 2, 5], start: 800, end: 1630 });
      }
      expect((await create(company.key, { action: 'battery_low' })).threshold).toBe(15);
      expect((await create(company.key, { action: 'enters_danger_zone', zoneId: dz })).zoneId).toBe(dz);
    });

    it('takes the optional parameters: place, window, threshold, targets by uid or username, title, inactive', async () => {
      const company = await createCompany(api);
      await action(
        api,
        'editcompany',
        {
          teams_config: [
            { id: 3, name: 'North' },
            { id: 7, name: 'South' },
          ],
        },
        { key: company.key },
      );
      const w = await createMember(api, company, { role: 'worker' });
      const w2 = await createMember(api, company, { role: 'worker' });
      const p = await place(company);
      const alert = await create(company.key, {
        action: 'checks_out',
        title: 'Left the depot',
        description: 'Tell the dispatcher',
        placeUid: p,
        window: { days: [7], start: 0, end: 2359 },
        members: [w.uid, w2.username.toUpperCase(), w.username],
        teams: [7, 3, 7],
        active: false,
      });
      expect(alert).toMatchObject({
        title: 'Left the depot',
        description: 'Tell the dispatcher',
        placeUid: p,
        window: { days: [7], start: 0, end: 2359 },
        members: [w.uid, w2.uid],
        teams: [3, 7],
        active: false,
      });
      expect(await create(company.key, { action: 'battery_low', threshold: 30 })).toMatchObject({ threshold: 30 });
      expect(await create(company.key, { action: 'idle', interval: 60_000, window: WINDOW })).toMatchObject({ interval: 60_000 });
      expect(await create(company.key, { action: 'no_check_in', placeUid: p, window: WINDOW })).toMatchObject({ placeUid: p });
    });

    describe('refuses with -1 naming the field and the rule', () => {
      let company: TestCompany;
      let z: string;
      let deletedZone: string;
      let p: string;
      let deletedPlace: string;
      let deactivated: string;
      beforeAll(async () => {
        company = await createCompany(api);
        z = await zone(company);
        deletedZone = await zone(company, { deleted: true });
        p = await place(company);
        deletedPlace = await place(company);
        expect((await call('deleteplace', { uid: deletedPlace }, company.key)).body.status).toBe(0);
        const gone = await createMember(api, company, { role: 'worker' });
        expect((await call('deleteaccount', { uid: gone.uid }, company.key)).body.status).toBe(0);
        deactivated = gone.uid;
      });

      const W = WINDOW;
      it.each<[string, Record<string, unknown>, string]>([
        ['action missing', {}, 'data.action: must be one of checks_in, checks_out'],
        ['action unknown', { action: 'arrives' }, 'data.action: must be one of'],
        ['action wrong case', { action: 'CHECKS_IN' }, 'data.action: must be one of'],
        ['unknown key', { action: 'checks_in', zone: 'x' }, 'data.zone: unknown field'],
        ['R-only key', { action: 'checks_in', actionCode: 1 }, 'data.actionCode: unknown field'],
        ['title too long', { action: 'checks_in', title: 'x'.repeat(201) }, 'data.title'],
        ['description not a string', { action: 'checks_in', description: 5 }, 'data.description'],
        ['active not a boolean', { action: 'checks_in', active: 'yes' }, 'data.active'],
        ['placeUid on idle', { action: 'idle', interval: 60000, placeUid: 'P' }, 'data.placeUid: is not taken by idle'],
        ['placeUid on enters_zone', { action: 'enters_zone', zoneId: 'Z', placeUid: 'P' }, 'data.placeUid: is not taken by enters_zone'],
        ['zoneId missing on enters_zone', { action: 'enters_zone' }, 'data.zoneId: is required for enters_zone'],
        ['zoneId missing on leaves_zone', { action: 'leaves_zone' }, 'data.zoneId: is required for leaves_zone'],
        ['zoneId on checks_in', { action: 'checks_in', zoneId: 'Z' }, 'data.zoneId: is not taken by checks_in'],
        ['zoneId null', { action: 'enters_zone', zoneId: null }, 'data.zoneId'],
        ['interval missing on idle', { action: 'idle' }, 'data.interval: is required for idle'],
        [
          'interval missing on no_connection_to_device',
          { action: 'no_connection_to_device' },
          'data.interval: is required for no_connection_to_device',
        ],
        ['interval on checks_in', { action: 'checks_in', interval: 60000 }, 'data.interval: is not taken by checks_in'],
        ['interval below a minute', { action: 'idle', interval: 59999 }, 'data.interval: must be an integer number of ms from 60000'],
        ['interval beyond 30 days', { action: 'idle', interval: 2_592_000_001 }, 'data.interval: must be an integer number of ms'],
        ['interval fractional', { action: 'idle', interval: 60000.5 }, 'data.interval'],
        ['interval a string', { action: 'idle', interval: '60000' }, 'data.interval'],
        [
          'threshold on idle',
          { action: 'idle', interval: 60000, threshold: 20 },
          'data.threshold: is not taken by idle (only by battery_low)',
        ],
        ['threshold 0', { action: 'battery_low', threshold: 0 }, 'data.threshold: must be an integer battery % from 1 to 99'],
        ['threshold 100', { action: 'battery_low', threshold: 100 }, 'data.threshold: must be an integer battery % from 1 to 99'],
        ['threshold fractional', { action: 'battery_low', threshold: 15.5 }, 'data.threshold'],
        ['window missing on no_check_in', { action: 'no_check_in' }, 'data.window: is required for no_check_in'],
        ['window missing on no_check_out', { action: 'no_check_out' }, 'data.window: is required for no_check_out'],
        ['window missing on no_check_any', { action: 'no_check_any' }, 'data.window: is required for no_check_any'],
        ['window not an object', { action: 'no_check_in', window: '0800-1700' }, 'data.window: must be an object {days, start, end}'],
        ['window days empty', { action: 'no_check_in', window: { ...W, days: [] } }, 'data.window.days'],
        ['window day 0', { action: 'no_check_in', window: { ...W, days: [0, 1] } }, 'data.window.days: must be ISO weekdays'],
        ['window day 8', { action: 'no_check_in', window: { ...W, days: [8] } }, 'data.window.days: must be ISO weekdays'],
        ['window days repeated', { action: 'no_check_in', window: { ...W, days: [1, 1] } }, 'data.window.days: must not repeat a day'],
        ['window days missing', { action: 'no_check_in', window: { start: 800, end: 900 } }, 'data.window.days'],
        [
          'window start minute 60',
          { action: 'no_check_in', window: { ...W, start: 860 } },
          'data.window.start: must be a time of day HHMM',
        ],
        ['window end hour 24', { action: 'no_check_in', window: { ...W, end: 2400 } }, 'data.window.end: must be a time of day HHMM'],
        ['window start a string', { action: 'no_check_in', window: { ...W, start: '0800' } }, 'data.window.start'],
        ['window end missing', { action: 'no_check_in', window: { days: [1], start: 800 } }, 'data.window.end'],
        [
          'window start after end',
          { action: 'no_check_in', window: { ...W, start: 1700, end: 800 } },
          'data.window.end: must be after start',
        ],
        [
          'window start equals end',
          { action: 'checks_in', window: { ...W, start: 800, end: 800 } },
          'data.window.end: must be after start',
        ],
        ['window unknown key', { action: 'checks_in', window: { ...W, tz: 'UTC' } }, 'data.window.tz: unknown field'],
        ['members not an array', { action: 'checks_in', members: 'a' }, 'data.members'],
        ['members empty string', { action: 'checks_in', members: [''] }, 'data.members'],
        ['teams not integers', { action: 'checks_in', teams: ['1'] }, 'data.teams: must be an array of team ids'],
      ])('%s', async (_label, data, message) => {
        await refused('createalert', data, company.key, message);
      });

      it('placeUid: unknown, deleted', async () => {
        await refused('createalert', { action: 'checks_in', placeUid: 'NOPE' }, company.key, 'data.placeUid: no such place NOPE');
        await refused(
          'createalert',
          { action: 'checks_in', placeUid: deletedPlace },
          company.key,
          `data.placeUid: no such place ${deletedPlace}`,
        );
        expect(await create(company.key, { action: 'checks_any', placeUid: p })).toMatchObject({ placeUid: p });
      });

      it('zoneId: unknown, deleted, not a danger zone for enters_danger_zone', async () => {
        await refused('createalert', { action: 'enters_zone', zoneId: 'NOPE' }, company.key, 'data.zoneId: no such zone NOPE');
        await refused(
          'createalert',
          { action: 'leaves_zone', zoneId: deletedZone },
          company.key,
          `data.zoneId: no such zone ${deletedZone}`,
        );
        await refused(
          'createalert',
          { action: 'enters_danger_zone', zoneId: z },
          company.key,
          `data.zoneId: zone ${z} is not a danger zone`,
        );
      });

      it('members: unknown or deactivated, named by position; teams not in teams_config', async () => {
        const w = await createMember(api, company, { role: 'worker' });
        await refused(
          'createalert',
          { action: 'checks_in', members: [w.uid, 'ghost@example.test'] },
          company.key,
          'data.members[1]: no active member ghost@example.test in the company',
        );
        await refused(
          'createalert',
          { action: 'checks_in', members: [deactivated] },
          company.key,
          `data.members[0]: no active member ${deactivated}`,
        );
        await refused(
          'createalert',
          { action: 'checks_in', teams: [4] },
          company.key,
          "data.teams[0]: team 4 is not in the company's teams_config",
        );
      });

      it('nothing is written by a refused call', async () => {
        const before = (await db.query(`SELECT count(*)::int AS n FROM alert_rules WHERE company_id = $1`, [company.companyUid]))[0].n;
        await refused('createalert', { action: 'idle' }, company.key, 'data.interval');
        const after = (await db.query(`SELECT count(*)::int AS n FROM alert_rules WHERE company_id = $1`, [company.companyUid]))[0].n;
        expect(after).toBe(before);
      });
    });
  });

  describe('editalert', () => {
    it('changes only the fields sent, answers {status, alert}, moves tsSaved', async () => {
      const company = await createCompany(api);
      const w = await createMember(api, company, { role: 'worker' });
      const rule = await create(company.key, { action: 'idle', interval: 600_000, title: 'Idle', window: WINDOW, members: [w.uid] });
      const res = await call('editalert', { id: rule.id, description: 'ten minutes', active: false }, company.key);
      expect(res.body).toEqual({ status: 0, alert: { ...rule, description: 'ten minutes', active: false, tsSaved: expect.any(Number) } });
      expect(res.body.alert.tsSaved).toBeGreaterThanOrEqual(rule.tsCreated);
      const [got] = (await call('getalerts', { ids: [rule.id] }, company.key)).body.alerts;
      expect(got).toEqual(res.body.alert);
      const next = await call('editalert', { id: rule.id, interval: 120_000, members: [], window: null }, company.key);
      expect(next.body.alert).toMatchObject({ interval: 120_000, members: [], title: 'Idle' });
      expect(next.body.alert.window).toBeUndefined();
    });

    it('checks the result against the action: required parameters stay, null cannot clear them', async () => {
      const company = await createCompany(api);
      const z = await zone(company);
      const rule = await create(company.key, { action: 'enters_zone', zoneId: z });
      await refused('editalert', { id: rule.id, zoneId: null }, company.key, 'data.zoneId: is required for enters_zone');
      await refused('editalert', { id: rule.id, interval: 60_000 }, company.key, 'data.interval: is not taken by enters_zone');
      await refused('editalert', { id: rule.id, zoneId: 'NOPE' }, company.key, 'data.zoneId: no such zone NOPE');
      await refused('editalert', { id: rule.id, action: 'idle' }, company.key, 'data.interval: is required for idle');
      await refused('editalert', { id: rule.id, action: 'nope' }, company.key, 'data.action: must be one of');
      await refused('editalert', { id: rule.id, threshold: 0 }, company.key, 'data.threshold');
      await refused('editalert', { id: rule.id, members: ['ghost'] }, company.key, 'data.members[0]: no active member ghost');
      await refused(
        'editalert',
        { id: rule.id, window: { days: [1], start: 900, end: 800 } },
        company.key,
        'data.window.end: must be after start',
      );
      await refused('editalert', { zoneId: z }, company.key, 'data.id');
      const [got] = (await call('getalerts', { ids: [rule.id] }, company.key)).body.alerts;
      expect(got).toEqual(rule);
    });

    it('a changed action drops the parameters it does not take; a zone kept must suit the new action', async () => {
      const company = await createCompany(api);
      const z = await zone(company);
      const dz = await zone(company, { danger: true });
      const idle = await create(company.key, { action: 'idle', interval: 600_000 });
      const moved = (await call('editalert', { id: idle.id, action: 'battery_low' }, company.key)).body.alert;
      expect(moved).toMatchObject({ action: 'battery_low', actionCode: 12, type: 1, threshold: 15 });
      expect(moved.interval).toBeUndefined();
      expect((await call('editalert', { id: idle.id, threshold: 40 }, company.key)).body.alert.threshold).toBe(40);
      expect((await call('editalert', { id: idle.id, threshold: null }, company.key)).body.alert.threshold).toBe(15);
      await refused(
        'editalert',
        { id: idle.id, action: 'checks_in', interval: 60_000 },
        company.key,
        'data.interval: is not taken by checks_in',
      );

      const entering = await create(company.key, { action: 'enters_zone', zoneId: z });
      await refused(
        'editalert',
        { id: entering.id, action: 'enters_danger_zone' },
        company.key,
        `data.zoneId: zone ${z} is not a danger zone`,
      );
      const danger = (await call('editalert', { id: entering.id, action: 'enters_danger_zone', zoneId: dz }, company.key)).body.alert;
      expect(danger).toMatchObject({ action: 'enters_danger_zone', zoneId: dz });
      const any = (await call('editalert', { id: entering.id, zoneId: null }, company.key)).body.alert;
      expect(any.zoneId).toBeUndefined();
      const noCheck = (await call('editalert', { id: entering.id, action: 'no_check_in', window: WINDOW }, company.key)).body.alert;
      expect(noCheck).toMatchObject({ action: 'no_check_in', window: { days: [1, 2, 5], start: 800, end: 1630 } });
    });

    it('an unknown, deleted or other company’s id → 1001/404 naming data.id; nothing changes', async () => {
      const company = await createCompany(api);
      const other = await createCompany(api);
      const theirs = await create(other.key, { action: 'checks_in', title: 'theirs' });
      const mine = await create(company.key, { action: 'checks_in' });
      expect((await call('deletealert', { id: mine.id }, company.key)).body.status).toBe(0);
      for (const id of ['NOPE', theirs.id, mine.id]) {
        const res = await call('editalert', { id, title: 'x' }, company.key);
        expect({ http: res.http, status: res.body.status, error: res.body.error }).toEqual({
          http: 404,
          status: 1001,
          error: `data.id: alert rule ${id} not found`,
        });
      }
      expect((await call('getalerts', {}, other.key)).body.alerts).toEqual([theirs]);
    });
  });

  describe('getalerts', () => {
    it('the company’s live rules, oldest first; ids narrows (unknown ids absent), active filters', async () => {
      const company = await createCompany(api);
      const a = await create(company.key, { action: 'checks_in' });
      const b = await create(company.key, { action: 'none', active: false });
      const c = await create(company.key, { action: 'battery_low' });
      const ids = async (data: Record<string, unknown>) =>
        ((await call('getalerts', data, company.key)).body.alerts as Array<{ id: string }>).map((r) => r.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect(await ids({ ids: [c.id, 'NOPE', a.id] })).toEqual([a.id, c.id]);
      expect(await ids({ active: true })).toEqual([a.id, c.id]);
      expect(await ids({ active: false })).toEqual([b.id]);
      expect(await ids({ ids: [] })).toEqual([]);
      await refused('getalerts', { ids: 'x' }, company.key, 'data.ids');
      await refused('getalerts', { active: 1 }, company.key, 'data.active');
      await refused('getalerts', { all: true }, company.key, 'data.all: unknown field');
    });
  });

  describe('deletealert', () => {
    it('soft-deletes by id or ids: gone from getalerts and editalert, the row kept for firings', async () => {
      const company = await createCompany(api);
      const [a, b, c] = [
        await create(company.key, { action: 'checks_in' }),
        await create(company.key, { action: 'checks_out' }),
        await create(company.key, { action: 'checks_any' }),
      ];
      expect((await call('deletealert', { id: a.id }, company.key)).body).toEqual({ status: 0 });
      expect((await call('deletealert', { ids: [b.id, b.id] }, company.key)).body).toEqual({ status: 0 });
      expect(((await call('getalerts', {}, company.key)).body.alerts as Array<{ id: string }>).map((r) => r.id)).toEqual([c.id]);
      const rows = await db.query(`SELECT id FROM alert_rules WHERE company_id = $1 AND deleted_at IS NOT NULL ORDER BY id`, [
        company.companyUid,
      ]);
      expect(rows.map((r: { id: string }) => r.id)).toEqual([a.id, b.id].sort());
    });

    it('all or nothing: an unknown, deleted or other company’s id → 1001/404 naming it, nothing deleted', async () => {
      const company = await createCompany(api);
      const other = await createCompany(api);
      const theirs = await create(other.key, { action: 'checks_in' });
      const mine = await create(company.key, { action: 'checks_in' });
      for (const bad of ['NOPE', theirs.id]) {
        const res = await call('deletealert', { ids: [mine.id, bad] }, company.key);
        expect({ http: res.http, status: res.body.status, error: res.body.error }).toEqual({
          http: 404,
          status: 1001,
          error: `data.ids[1]: alert rule ${bad} not found`,
        });
      }
      expect((await call('getalerts', {}, company.key)).body.alerts).toHaveLength(1);
      expect((await call('getalerts', {}, other.key)).body.alerts).toHaveLength(1);
      expect((await call('deletealert', { id: mine.id }, company.key)).body.status).toBe(0);
      expect((await call('deletealert', { id: mine.id }, company.key)).body.status).toBe(1001);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['neither', {}, 'data.id: is required (or ids)'],
      ['both', { id: 'A', ids: ['B'] }, 'data.ids: send id or ids, not both'],
      ['ids empty', { ids: [] }, 'data.ids: must name at least one alert rule'],
      ['id empty', { id: '' }, 'data.id'],
    ])('refuses %s with -1', async (_label, data, message) => {
      const company = await createCompany(api);
      await refused('deletealert', data, company.key, message);
    });
  });

  describe('tenant isolation and teams', () => {
    it('another company’s places, zones and members behave as unknown', async () => {
      const company = await createCompany(api);
      const other = await createCompany(api);
      const theirPlace = await place(other);
      const theirZone = await zone(other, { danger: true });
      const theirMember = await createMember(api, other, { role: 'worker' });
      await refused(
        'createalert',
        { action: 'checks_in', placeUid: theirPlace },
        company.key,
        `data.placeUid: no such place ${theirPlace}`,
      );
      await refused('createalert', { action: 'enters_zone', zoneId: theirZone }, company.key, `data.zoneId: no such zone ${theirZone}`);
      await refused(
        'createalert',
        { action: 'enters_danger_zone', zoneId: theirZone },
        company.key,
        `data.zoneId: no such zone ${theirZone}`,
      );
      await refused('createalert', { action: 'checks_in', members: [theirMember.uid] }, company.key, 'data.members[0]: no active member');
      await refused(
        'createalert',
        { action: 'checks_in', members: [theirMember.username] },
        company.key,
        'data.members[0]: no active member',
      );
      expect((await call('getalerts', {}, company.key)).body.alerts).toEqual([]);
    });

    it('editcompany cannot remove a team a live rule targets; it can once the rule is deleted', async () => {
      const company = await createCompany(api);
      await call(
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'North' },
            { id: 2, name: 'South' },
          ],
        },
        company.key,
      );
      const rule = await create(company.key, { action: 'checks_in', teams: [2] });
      await refused('editcompany', { teams_config: [{ id: 1, name: 'North' }] }, company.key, 'team 2 is still assigned to alert rules');
      expect((await call('deletealert', { id: rule.id }, company.key)).body.status).toBe(0);
      expect((await call('editcompany', { teams_config: [{ id: 1, name: 'North' }] }, company.key)).body.status).toBe(0);
    });
  });

  describe('roles', () => {
    it('administrators write rules; operators read rules and firings but write none; workers reach nothing', async () => {
      const company = await createCompany(api);
      const admin = await createMember(api, company, { role: 'administrator' });
      const op = await createMember(api, company, { role: 'operator' });
      const worker = await createMember(api, company, { role: 'worker' });
      const rule = await create(admin.key, { action: 'checks_in' });
      for (const [name, data] of [
        ['createalert', { action: 'checks_in' }],
        ['editalert', { id: rule.id, title: 'x' }],
        ['deletealert', { id: rule.id }],
      ] as const) {
        for (const who of [op, worker]) {
          const res = await call(name, data, who.key);
          expect({ name, http: res.http, status: res.body.status }).toEqual({ name, http: 403, status: -5 });
        }
      }
      expect((await call('getalerts', {}, op.key)).body.alerts).toEqual([rule]);
      expect((await call('getalertfirings', {}, op.key)).body).toEqual({ status: 0, firings: [] });
      for (const name of ['getalerts', 'getalertfirings']) {
        const res = await call(name, {}, worker.key);
        expect({ name, http: res.http, status: res.body.status }).toEqual({ name, http: 403, status: -5 });
      }
    });
  });

  describe('getalertfirings', () => {
    /** A firing row as the evaluator writes it. */
    const firing = async (
      company: TestCompany,
      f: { ruleId: string; memberId: string; ts: number; action?: string; placeId?: string; zoneId?: string; checkType?: string },
    ) => {
      const id = newId();
      await db.query(
        `INSERT INTO alert_firings (company_id, id, rule_id, member_id, action, occurrence, place_id, zone_id, check_type, message, ts, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          company.companyUid,
          id,
          f.ruleId,
          f.memberId,
          f.action ?? 'checks_in',
          `o-${id}`,
          f.placeId ?? null,
          f.zoneId ?? null,
          f.checkType ?? null,
          `message ${f.ts}`,
          f.ts,
          Date.now(),
        ],
      );
      return id;
    };

    it('newest first, with since (inclusive), limit and ruleId; optional keys only when set; a deleted rule’s firings still listed', async () => {
      const company = await createCompany(api);
      const T = 1_700_000_000_000;
      const w = await createMember(api, company, { role: 'worker' });
      const p = await place(company);
      const r1 = await create(company.key, { action: 'checks_in' });
      const r2 = await create(company.key, { action: 'leaves_zone', zoneId: await zone(company) });
      const f1 = await firing(company, { ruleId: r1.id, memberId: w.uid, ts: T + 1_000, placeId: p, checkType: 'IN' });
      const f2 = await firing(company, { ruleId: r2.id, memberId: w.uid, ts: T + 3_000, action: 'leaves_zone', zoneId: r2.zoneId });
      const f3 = await firing(company, { ruleId: r1.id, memberId: w.uid, ts: T + 2_000, placeId: p, checkType: 'IN' });
      const list = async (data: Record<string, unknown>) => {
        const res = await call('getalertfirings', data, company.key);
        expect(res.body.status).toBe(0);
        return res.body.firings as Array<{ id: string }>;
      };
      const all = await list({});
      expect(all.map((f) => f.id)).toEqual([f2, f3, f1]);
      expect(all[0]).toEqual({
        id: f2,
        ruleId: r2.id,
        action: 'leaves_zone',
        memberUid: w.uid,
        zoneId: r2.zoneId,
        message: `message ${T + 3000}`,
        ts: T + 3000,
      });
      expect(all[2]).toEqual({
        id: f1,
        ruleId: r1.id,
        action: 'checks_in',
        memberUid: w.uid,
        placeUid: p,
        checkType: 'IN',
        message: `message ${T + 1000}`,
        ts: T + 1000,
      });
      expect((await list({ since: T + 2_000 })).map((f) => f.id)).toEqual([f2, f3]);
      expect((await list({ since: T + 3_001 })).map((f) => f.id)).toEqual([]);
      expect((await list({ since: 0 })).map((f) => f.id)).toEqual([f2, f3, f1]);
      const secs = await call('getalertfirings', { since: (T + 2_000) / 1000 }, company.key);
      expect({ http: secs.http, body: secs.body }).toEqual({
        http: 400,
        body: { status: -1, error: `data.since: must be ms since the epoch; ${(T + 2_000) / 1000} looks like seconds` },
      });
      expect((await list({ limit: 1 })).map((f) => f.id)).toEqual([f2]);
      expect((await list({ ruleId: r1.id })).map((f) => f.id)).toEqual([f3, f1]);
      expect((await list({ ruleId: 'NOPE' })).map((f) => f.id)).toEqual([]);
      expect((await call('deletealert', { id: r1.id }, company.key)).body.status).toBe(0);
      expect((await list({ ruleId: r1.id })).map((f) => f.id)).toEqual([f3, f1]);
    });

    it('limit defaults to 100', async () => {
      const company = await createCompany(api);
      const rule = await create(company.key, { action: 'checks_in' });
      const values = Array.from({ length: 101 }, (_, i) => i);
      await db.query(
        `INSERT INTO alert_firings (company_id, id, rule_id, member_id, action, occurrence, message, ts, created_at)
         SELECT $1, lpad(i::text, 26, '0'), $2, $3, 'checks_in', 'o' || i, 'm', 1000 + i, 0 FROM unnest($4::int[]) i`,
        [company.companyUid, rule.id, company.ownerUid, values],
      );
      const res = await call('getalertfirings', {}, company.key);
      expect(res.body.firings).toHaveLength(100);
      expect(res.body.firings[0].ts).toBe(1100);
    });

    it('another company’s firings are never listed, not even by their rule id', async () => {
      const company = await createCompany(api);
      const other = await createCompany(api);
      const theirs = await create(other.key, { action: 'checks_in' });
      await firing(other, { ruleId: theirs.id, memberId: other.ownerUid, ts: 5_000 });
      expect((await call('getalertfirings', {}, company.key)).body.firings).toEqual([]);
      expect((await call('getalertfirings', { ruleId: theirs.id }, company.key)).body.firings).toEqual([]);
      expect((await call('getalertfirings', {}, other.key)).body.firings).toHaveLength(1);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['since negative', { since: -1 }, 'data.since'],
      ['since a string', { since: '0' }, 'data.since'],
      ['limit 0', { limit: 0 }, 'data.limit'],
      ['limit 1001', { limit: 1001 }, 'data.limit'],
      ['ruleId empty', { ruleId: '' }, 'data.ruleId'],
      ['unknown key', { before: 5 }, 'data.before: unknown field'],
    ])('refuses %s with -1', async (_label, data, message) => {
      const company = await createCompany(api);
      await refused('getalertfirings', data, company.key, message);
    });
  });
});
