import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/** Company B's key cannot read, edit, delete or detect company A's members. */
describe('tenant isolation', () => {
  let api: TestApi;
  let db: DataSource;
  let a: TestCompany;
  let b: TestCompany;
  let aWorker: { uid: string; username: string; key: string };

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    a = await createCompany(api, { name: 'Alpha' });
    b = await createCompany(api, { name: 'Beta' });
    aWorker = await createMember(api, a, { name: 'Alpha Worker Unique' });
  });
  afterAll(() => api.close());

  const row = async (uid: string) => (await db.query(`SELECT * FROM members WHERE id = $1`, [uid]))[0];

  it('cannot read: getaccounts with A’s uids answers as for unknown ids', async () => {
    const known = await action<any>(api, 'getaccounts', { uids: [aWorker.uid, a.ownerUid] }, { key: b.key });
    const unknown = await action<any>(
      api,
      'getaccounts',
      { uids: ['01ZZZZZZZZZZZZZZZZZZZZZZZZ', '01YYYYYYYYYYYYYYYYYYYYYYYY'] },
      { key: b.key },
    );
    expect(known).toEqual(unknown);
    expect(known.body.accounts).toEqual([]);
    const listed = await action<any>(api, 'getaccounts', {}, { key: b.key });
    expect(listed.body.accounts.map((m: { uid: string }) => m.uid)).toEqual([b.ownerUid]);
  });

  it('cannot edit: editaccount by uid or username answers account null, and nothing changes', async () => {
    const before = await row(aWorker.uid);
    const byUid = await action(api, 'editaccount', { uid: aWorker.uid, name: 'Hijacked' }, { key: b.key });
    const byName = await action(api, 'editaccount', { account: aWorker.username, name: 'Hijacked' }, { key: b.key });
    const unknown = await action(api, 'editaccount', { uid: '01ZZZZZZZZZZZZZZZZZZZZZZZZ', name: 'Hijacked' }, { key: b.key });
    expect(byUid).toEqual(unknown);
    expect(byName).toEqual(unknown);
    expect(byUid.body).toEqual({ status: 0, account: null });
    expect(await row(aWorker.uid)).toEqual(before);
  });

  it('cannot delete: uid → the not-found answer; uids → skipped; A’s members stay active', async () => {
    const known = await action(api, 'deleteaccount', { uid: aWorker.uid }, { key: b.key });
    const unknown = await action(api, 'deleteaccount', { uid: '01ZZZZZZZZZZZZZZZZZZZZZZZZ' }, { key: b.key });
    expect(known.http).toBe(404);
    expect(known.body.status).toBe(1001);
    expect(known.body.error!.replace(aWorker.uid, 'X')).toBe(unknown.body.error!.replace('01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'X'));
    expect((await action(api, 'deleteaccount', { uids: [aWorker.uid, a.ownerUid] }, { key: b.key })).body).toEqual({ status: 0 });
    expect((await row(aWorker.uid)).active_status).toBe('active');
    expect((await row(a.ownerUid)).active_status).toBe('active');
  });

  it('cannot detect through the connector: search by name or uid finds nothing', async () => {
    expect((await connector(api, 'GET', '/v1/members?query=Alpha%20Worker', b.key)).body.data.items).toEqual([]);
    expect((await connector(api, 'GET', `/v1/members?query=${aWorker.uid}`, b.key)).body.data.items).toEqual([]);
    const who = await connector(api, 'GET', '/v1/auth/whoami', b.key);
    expect(who.body.data.company.id).toBe(b.companyUid);
  });

  it('getcompany and getnotifications answer only the caller’s company', async () => {
    const company = await action<any>(api, 'getcompany', {}, { key: b.key });
    expect(company.body.company.uid).toBe(b.companyUid);
    const notes = await action<any>(api, 'getnotifications', {}, { key: b.key });
    const aIds: Array<{ id: string }> = await db.query(`SELECT id FROM notifications WHERE company_id = $1`, [a.companyUid]);
    expect(aIds.length).toBeGreaterThan(0);
    const seen = new Set(notes.body.notifications.map((n: { id: string }) => n.id));
    expect(aIds.filter((n) => seen.has(n.id))).toEqual([]);
  });

  it('a username of company A is "not available" to B, naming no company', async () => {
    const res = await action(api, 'createaccount', { name: 'Copy', username: aWorker.username }, { key: b.key });
    expect(res.body).toEqual({ status: -4, error: 'data.username: username not available' });
  });
});
