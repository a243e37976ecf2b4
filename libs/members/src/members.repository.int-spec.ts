import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, IntCompany, openIntegrationDb } from '@test/support/integration';
import { DEVICE_ID_TAKEN, MembersRepository, USERNAME_TAKEN } from './members.repository';

describe('MembersRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: MembersRepository;
  let a: IntCompany;
  let b: IntCompany;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new MembersRepository(ds);
    a = await createIntCompany(ds);
    b = await createIntCompany(ds);
  });
  afterAll(() => ds.destroy());

  it('lists the company’s active members oldest first, and members by id active or not, never another company’s', async () => {
    const w1 = await createIntMember(ds, a.companyId, { teams: [1] });
    const w2 = await createIntMember(ds, a.companyId);
    const other = await createIntMember(ds, b.companyId);
    await repo.transaction((db) => repo.deactivate(db, a.companyId, w2, Date.now()));
    expect((await repo.listActive(a.companyId)).map((m) => m.id)).toEqual([a.ownerId, w1]);
    const byIds = await repo.listByIds(a.companyId, [w2, other, w1]);
    expect(byIds.map((m) => [m.id, m.activeStatus])).toEqual([
      [w1, 'active'],
      [w2, 'deactivated'],
    ]);
    expect(await repo.countActive(ds, a.companyId)).toBe(2);
    expect((await repo.findInCompanyOrFail(a.companyId, w1)).teams).toEqual([1]);
    await expect(repo.findInCompanyOrFail(a.companyId, other)).rejects.toThrow();
  });

  it('looks usernames up case-insensitively: across companies for sign-up and keys, within the company for accounts', async () => {
    const username = `Case-${Date.now()}@Int.Test`;
    const id = await createIntMember(ds, b.companyId, { username });
    expect(await repo.usernameTaken(ds, username.toLowerCase())).toBe(true);
    expect(await repo.usernameTaken(ds, `nobody-${id}`)).toBe(false);
    expect((await repo.findByUsername(ds.manager, username.toUpperCase()))?.id).toBe(id);
    expect(await repo.activeByUsername(username.toLowerCase())).toEqual({ id, company_id: b.companyId });
    // within a company: another company's member is unknown
    expect(await repo.findByAccount(a.companyId, username)).toBeNull();
    expect((await repo.findByAccount(b.companyId, username.toLowerCase()))?.id).toBe(id);
    expect((await repo.findByAccount(b.companyId, id))?.id).toBe(id);
    await repo.transaction(async (db) => {
      expect(await repo.lockByUsername(db, a.companyId, username)).toBeNull();
      expect((await repo.lockByUsername(db, b.companyId, username.toUpperCase()))?.id).toBe(id);
      expect(await repo.lockById(db, a.companyId, id)).toBeNull();
      expect((await repo.lockById(db, b.companyId, id))?.id).toBe(id);
      expect((await repo.lockByIds(db, a.companyId, [id, a.ownerId])).map((m) => m.id)).toEqual([a.ownerId]);
      await repo.deactivate(db, b.companyId, id, 1234);
    });
    expect(await repo.activeByUsername(username)).toBeUndefined();
    expect((await repo.findByAccount(b.companyId, id))?.deactivatedAt).toBe(1234);
  });

  it('creates, saves and inserts members', async () => {
    const c = await createIntCompany(ds);
    const now = Date.now();
    const m = repo.create({ id: newId(), companyId: c.companyId, createdAt: now });
    Object.assign(m, { username: `saved-${now}@int.test`, name: 'Saved', role: 'worker', updatedAt: now, teams: [3] });
    await repo.transaction((db) => repo.save(db, m));
    expect((await repo.listActive(c.companyId)).map((x) => x.name)).toEqual(['Owner', 'Saved']);
    await repo.transaction((db) =>
      repo.insert(db, {
        id: newId(),
        companyId: c.companyId,
        username: `ins-${now}@int.test`,
        name: 'Ins',
        role: 'worker',
        createdAt: now + 1,
        updatedAt: now + 1,
      }),
    );
    expect(await repo.countActive(ds, c.companyId)).toBe(3);
  });

  it('answers teams, usernames and team use by member; team use only of active members of the company', async () => {
    const c = await createIntCompany(ds);
    const w = await createIntMember(ds, c.companyId, { teams: [4, 5] });
    const gone = await createIntMember(ds, c.companyId, { teams: [6] });
    await createIntMember(ds, b.companyId, { teams: [7] });
    await repo.transaction((db) => repo.deactivate(db, c.companyId, gone, Date.now()));
    expect(await repo.teamsOf(w)).toEqual([4, 5]);
    expect(await repo.teamsOf('01NOSUCHMEMBER000000000000')).toBeUndefined();
    expect(await repo.usernameOf(c.ownerId)).toBe(c.ownerUsername);
    expect((await repo.teamsInUse(ds, c.companyId, [4, 6, 7, 9])).sort()).toEqual([4]);
  });

  it('searches the company’s active members by id or a LIKE on name, username, e-mail, by name', async () => {
    const c = await createIntCompany(ds);
    const zed = await createIntMember(ds, c.companyId, { name: 'Zed 100%' });
    // 'Lulu': L and U are not in the ULIDs that make the fixtures' usernames (Crockford base32), so the
    // search can only match the name
    const lulu = await createIntMember(ds, c.companyId, { name: 'Lulu' });
    await createIntMember(ds, b.companyId, { name: 'Lulu elsewhere' });
    expect((await repo.search(c.companyId)).map((m) => m.name)).toEqual(['Lulu', 'Owner', 'Zed 100%']);
    expect((await repo.search(c.companyId, { text: 'lulu', like: '%lulu%' })).map((m) => m.id)).toEqual([lulu]);
    expect((await repo.search(c.companyId, { text: zed, like: '%no match%' })).map((m) => m.id)).toEqual([zed]);
    expect((await repo.search(c.companyId, { text: '0%', like: '%0\\%%' })).map((m) => m.id)).toEqual([zed]);
  });

  it('finds active members by lower-case username or id within the company', async () => {
    const c = await createIntCompany(ds);
    const w = await createIntMember(ds, c.companyId, { teams: [2], username: `Find-${Date.now()}@int.test` });
    const elsewhere = await createIntMember(ds, b.companyId);
    const rows = await repo.findActive(c.companyId, [c.ownerUsername.toLowerCase()], [w, elsewhere]);
    expect(rows.map((r) => r.id).sort()).toEqual([c.ownerId, w].sort());
    expect(rows.find((r) => r.id === w)).toEqual({ id: w, username: expect.stringMatching(/^Find-/), role: 'worker', teams: [2] });
  });

  it('clears expired invitations of every company, and only those', async () => {
    const c = await createIntCompany(ds);
    const expired = await createIntMember(ds, c.companyId);
    const live = await createIntMember(ds, b.companyId);
    await ds.query(`UPDATE members SET invitation_token_hash = 'h', invitation_expires_at = $2 WHERE id = $1`, [expired, 1000]);
    await ds.query(`UPDATE members SET invitation_token_hash = 'h', invitation_expires_at = $2 WHERE id = $1`, [live, 9e12]);
    expect(await repo.clearExpiredInvitations(2000)).toBeGreaterThanOrEqual(1);
    const [e] = await repo.listByIds(c.companyId, [expired]);
    const [l] = await repo.listByIds(b.companyId, [live]);
    expect([e.invitationTokenHash, e.invitationExpiresAt]).toEqual([null, null]);
    expect(l.invitationTokenHash).toBe('h');
  });

  const lookups = async (id: string) => ({
    usernames: await ds.query(`SELECT username, company_id FROM member_usernames WHERE member_id = $1`, [id]),
    devices: await ds.query(`SELECT device_id, company_id FROM member_device_ids WHERE member_id = $1 ORDER BY device_id`, [id]),
  });

  it('writes the member and its lookup rows (lower-case keys) together; a device id set, changed and cleared moves its row', async () => {
    const c = await createIntCompany(ds);
    const now = Date.now();
    const id = newId();
    const m = repo.create({ id, companyId: c.companyId, createdAt: now });
    Object.assign(m, { username: `Mixed-${id}@Int.Test`, name: 'Mixed', role: 'worker', updatedAt: now, deviceId: `Dev-${id}` });
    await repo.transaction((db) => repo.save(db, m));
    expect(await lookups(id)).toEqual({
      usernames: [{ username: `mixed-${id.toLowerCase()}@int.test`, company_id: c.companyId }],
      devices: [{ device_id: `dev-${id.toLowerCase()}`, company_id: c.companyId }],
    });
    // same device id in another case: unchanged for the lookup, the row stays
    await repo.transaction(async (db) => {
      const locked = (await repo.lockById(db, c.companyId, id))!;
      locked.deviceId = `DEV-${id}`;
      await repo.save(db, locked);
    });
    expect((await lookups(id)).devices).toEqual([{ device_id: `dev-${id.toLowerCase()}`, company_id: c.companyId }]);
    await repo.transaction(async (db) => {
      const locked = (await repo.lockById(db, c.companyId, id))!;
      locked.deviceId = `other-${id}`;
      await repo.save(db, locked);
    });
    expect((await lookups(id)).devices).toEqual([{ device_id: `other-${id.toLowerCase()}`, company_id: c.companyId }]);
    await repo.transaction(async (db) => {
      const locked = (await repo.lockById(db, c.companyId, id))!;
      locked.deviceId = null;
      await repo.save(db, locked);
    });
    expect((await lookups(id)).devices).toEqual([]);
    // deactivated: the username stays taken
    await repo.transaction((db) => repo.deactivate(db, c.companyId, id, now + 1));
    expect(await repo.usernameTaken(ds, `MIXED-${id}@int.test`)).toBe(true);
  });

  it("refuses a username or device id another company's member has, leaving neither the member row nor any lookup row", async () => {
    const c = await createIntCompany(ds);
    const taken = await createIntMember(ds, a.companyId, { username: `taken-${newId()}@int.test` });
    const takenName = (await repo.findInCompanyOrFail(a.companyId, taken)).username;
    const id = newId();
    const insert = (fields: { username: string; deviceId?: string }) =>
      repo.transaction((db) =>
        repo.insert(db, { id, companyId: c.companyId, name: 'Late', role: 'worker', createdAt: 1, updatedAt: 1, ...fields }),
      );
    await expect(insert({ username: takenName.toUpperCase() })).rejects.toMatchObject({
      driverError: { code: '23505', constraint: USERNAME_TAKEN },
    });
    expect(await repo.listByIds(c.companyId, [id])).toEqual([]);
    expect(await lookups(id)).toEqual({ usernames: [], devices: [] });

    const device = `taken-dev-${id}`;
    await repo.transaction(async (db) => {
      const locked = (await repo.lockById(db, a.companyId, taken))!;
      locked.deviceId = device;
      await repo.save(db, locked);
    });
    await expect(insert({ username: `free-${id}@int.test`, deviceId: device.toUpperCase() })).rejects.toMatchObject({
      driverError: { code: '23505', constraint: DEVICE_ID_TAKEN },
    });
    expect(await repo.listByIds(c.companyId, [id])).toEqual([]);
    expect(await lookups(id)).toEqual({ usernames: [], devices: [] });

    // the lookup rows go in first; a member row that then fails (its id taken in the company) takes them back
    await expect(
      repo.transaction((db) =>
        repo.insert(db, { id: c.ownerId, companyId: c.companyId, username: `dup-${id}@int.test`, name: 'Dup', createdAt: 1, updatedAt: 1 }),
      ),
    ).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'PK_members' } });
    expect(await repo.usernameTaken(ds, `dup-${id}@int.test`)).toBe(false);
  });

  it('finds members by username only through member_usernames: a member row without its lookup row is not found across companies', async () => {
    const id = newId();
    const username = `orphan-${id}@int.test`;
    await ds.query(
      `INSERT INTO members (id, company_id, username, name, role, created_at, updated_at) VALUES ($1, $2, $3, 'Orphan', 'worker', 1, 1)`,
      [id, a.companyId, username],
    );
    expect(await repo.usernameTaken(ds, username)).toBe(false);
    expect(await repo.activeByUsername(username)).toBeUndefined();
    expect(await repo.findByUsername(ds.manager, username)).toBeNull();
    expect((await repo.findByAccount(a.companyId, username))?.id).toBe(id); // within the company: the row itself
  });
});
