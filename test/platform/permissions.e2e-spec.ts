import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

type Key = { uid: string; username: string; key: string };

/**
 * Every cell of CONTRACTS.md's role table that the members and company actions touch, run with
 * the worker settings all off and with each one on: member actions don't depend on them.
 */
const SETTINGS = [
  { workers_edit_job: false, workers_create_places: false, workers_view_places: false },
  { workers_edit_job: true, workers_create_places: false, workers_view_places: false },
  { workers_edit_job: false, workers_create_places: true, workers_view_places: false },
  { workers_edit_job: false, workers_create_places: false, workers_view_places: true },
];

describe.each(SETTINGS)('permission matrix with %j', (settings) => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let admin: Key, operator: Key, workerA: Key, workerB: Key, workerC: Key;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
    expect(
      (
        await action(
          api,
          'editcompany',
          {
            teams_config: [
              { id: 1, name: 'One' },
              { id: 2, name: 'Two' },
            ],
            ...settings,
          },
          { key: company.key },
        )
      ).body.status,
    ).toBe(0);
    admin = await createMember(api, company, { role: 'administrator' });
    operator = await createMember(api, company, { role: 'operator' });
    workerA = await createMember(api, company, { role: 'worker', teams: [1] });
    workerB = await createMember(api, company, { role: 'worker', teams: [1, 2] });
    workerC = await createMember(api, company, { role: 'worker', teams: [2] });
  });
  afterAll(() => api.close());

  const uidsSeenBy = async (key: string) =>
    ((await action<any>(api, 'getaccounts', {}, { key })).body.accounts as Array<{ uid: string }>).map((a) => a.uid).sort();
  const status = async (name: string, data: unknown, key: string) => (await action(api, name, data, { key })).body.status;
  const uname = () => `perm.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.test`;

  it('getaccounts: staff see every member; a worker sees itself and members sharing a team', async () => {
    const all = [company.ownerUid, admin.uid, operator.uid, workerA.uid, workerB.uid, workerC.uid].sort();
    expect(await uidsSeenBy(admin.key)).toEqual(all);
    expect(await uidsSeenBy(operator.key)).toEqual(all);
    expect(await uidsSeenBy(workerA.key)).toEqual([workerA.uid, workerB.uid].sort());
    expect(await uidsSeenBy(workerC.key)).toEqual([workerB.uid, workerC.uid].sort());
    // by uid too: a worker asking for a member it may not view gets nothing
    const res = await action<any>(api, 'getaccounts', { uids: [workerC.uid, admin.uid] }, { key: workerA.key });
    expect(res.body.accounts).toEqual([]);
  });

  it('createaccount: administrator any role; dispatcher workers only; worker no', async () => {
    for (const role of ['worker', 'operator', 'administrator'])
      expect(await status('createaccount', { name: 'N', username: uname(), role }, admin.key)).toBe(0);
    expect(await status('createaccount', { name: 'N', username: uname(), role: 'worker' }, operator.key)).toBe(0);
    expect(await status('createaccount', { name: 'N', username: uname() }, operator.key)).toBe(0);
    for (const role of ['operator', 'dispatcher', 'administrator', 'admin']) {
      const username = uname();
      const res = await action(api, 'createaccount', { name: 'N', username, role }, { key: operator.key });
      expect(res).toEqual({ http: 403, body: { status: -5, error: expect.stringMatching(/^data\.role/) } });
      expect(await db.query(`SELECT 1 FROM members WHERE username = $1`, [username])).toHaveLength(0);
    }
    expect((await action(api, 'createaccount', { name: 'N', username: uname() }, { key: workerA.key })).http).toBe(403);
  });

  it('editaccount: administrator anyone but the owner keeps its role', async () => {
    expect(await status('editaccount', { uid: operator.uid, status_label: `a${Date.now()}` }, admin.key)).toBe(0);
    expect(await status('editaccount', { uid: company.ownerUid, status_label: `b${Date.now()}` }, admin.key)).toBe(0);
    expect(await status('editaccount', { uid: company.ownerUid, role: 'worker' }, admin.key)).toBe(-5);
    expect(await status('editaccount', { uid: company.ownerUid, role: 'administrator' }, admin.key)).toBe(0); // no change
    const extra = await createMember(api, company, { role: 'administrator' });
    expect(await status('editaccount', { uid: extra.uid, role: 'operator' }, admin.key)).toBe(0);
  });

  it('editaccount: dispatcher edits workers but never the role; not other staff', async () => {
    expect(await status('editaccount', { uid: workerA.uid, color: '#00FF00', teams: [1, 2] }, operator.key)).toBe(0);
    expect(await status('editaccount', { uid: workerA.uid, teams: [1] }, operator.key)).toBe(0);
    expect(await status('editaccount', { uid: workerA.uid, role: 'operator' }, operator.key)).toBe(-5);
    expect(await status('editaccount', { uid: admin.uid, name: 'Nope' }, operator.key)).toBe(-5);
    expect(await status('editaccount', { uid: company.ownerUid, name: 'Nope' }, operator.key)).toBe(-5);
    expect(await status('editaccount', { uid: operator.uid, name: `Self ${Date.now()}` }, operator.key)).toBe(0);
    expect(await status('editaccount', { uid: operator.uid, role: 'administrator' }, operator.key)).toBe(-5);
  });

  it('editaccount: a worker edits only itself, only the limited fields', async () => {
    const allowed = {
      name: `W ${Date.now()}`,
      phone: '+386 40 111 222',
      email: `w${Date.now()}@example.test`,
      color: '#ABCDEF',
      status_label: 'busy',
      unit_distance: 'US',
      unit_time: '12',
      unit_date: 'DD.MM.YYYY',
      timezone: 'Asia/Tokyo',
      language: 'sl',
      device_id: `w-${workerA.uid}`,
    };
    const res = await action<any>(api, 'editaccount', { uid: workerA.uid, ...allowed }, { key: workerA.key });
    expect(res.body.status).toBe(0);
    expect(res.body.account).toMatchObject(allowed);
    for (const [field, value] of Object.entries({
      role: 'administrator',
      teams: [1, 2],
      skills: ['x'],
      radius: 5,
      working_hours_overrides: { '20261224': { start: 1, end: 2 } },
      travel_mode: 'van',
    })) {
      const denied = await action(api, 'editaccount', { uid: workerA.uid, [field]: value }, { key: workerA.key });
      expect(denied.http).toBe(403);
      expect(denied.body.error).toContain(field);
    }
    expect(await status('editaccount', { uid: workerB.uid, name: 'Not mine' }, workerA.key)).toBe(-5);
  });

  it('deleteaccount: administrator anyone but the owner; dispatcher workers only; worker no', async () => {
    const w1 = await createMember(api, company, { role: 'worker' });
    const w2 = await createMember(api, company, { role: 'worker' });
    const op2 = await createMember(api, company, { role: 'operator' });
    const ad2 = await createMember(api, company, { role: 'administrator' });
    expect(await status('deleteaccount', { uid: w1.uid }, workerA.key)).toBe(-5);
    expect(await status('deleteaccount', { uid: op2.uid }, operator.key)).toBe(-5);
    expect(await status('deleteaccount', { uid: w1.uid }, operator.key)).toBe(0);
    expect(await status('deleteaccount', { uid: ad2.uid }, admin.key)).toBe(0);
    expect(await status('deleteaccount', { uid: op2.uid }, admin.key)).toBe(0);
    expect(await status('deleteaccount', { uid: company.ownerUid }, admin.key)).toBe(-5);
    expect(await status('deleteaccount', { uids: [w2.uid] }, workerA.key)).toBe(-5);
  });

  it('editcompany: administrators only; getcompany: everyone', async () => {
    expect(await status('editcompany', { address: `Street ${Date.now()}` }, admin.key)).toBe(0);
    expect(await status('editcompany', { address: 'No' }, operator.key)).toBe(-5);
    expect(await status('editcompany', { address: 'No' }, workerA.key)).toBe(-5);
    for (const k of [admin.key, operator.key, workerA.key]) {
      const res = await action<any>(api, 'getcompany', {}, { key: k });
      expect(res.body.company).toMatchObject(settings);
    }
  });

  it('getnotifications: staff see their own and company-wide rows; a worker only its own', async () => {
    // createaccount above wrote company-wide `members_changed` rows
    const staff = await action<any>(api, 'getnotifications', {}, { key: operator.key });
    expect(staff.body.notifications.some((n: { memberUid: string | null }) => n.memberUid === null)).toBe(true);
    const worker = await action<any>(api, 'getnotifications', {}, { key: workerA.key });
    expect(worker.body.notifications.every((n: { memberUid: string | null }) => n.memberUid === workerA.uid)).toBe(true);
  });

  it('connector members: a worker finds only members it may view', async () => {
    const res = await connector(api, 'GET', '/v1/members', workerA.key);
    expect(res.body.data.items.map((m: { id: string }) => m.id).sort()).toEqual([workerA.uid, workerB.uid].sort());
  });
});
