import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from './support/api';

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
      [id, company.companyUid, `Zone ${id.slice(-4)}`, `SRID=4326;${SQUARE}`, opts.danger ?? false, Date.now(), opts.deleted ? Date.now() : null],
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
      await action(api, 'editcompany', { teams_config: [{ id: 3, name: 'North' }, { id: 7, name: 'South' }] }, { key: company.key });
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
  });
});
