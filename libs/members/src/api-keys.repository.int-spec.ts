import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, IntCompany, openIntegrationDb } from '@test/support/integration';
import { ApiKeysRepository } from './api-keys.repository';

describe('ApiKeysRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: ApiKeysRepository;
  let a: IntCompany;
  let b: IntCompany;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new ApiKeysRepository(ds);
    a = await createIntCompany(ds);
    b = await createIntCompany(ds);
  });
  afterAll(() => ds.destroy());

  /** Inserts a key of `memberId` with a fresh prefix; @returns the prefix. */
  async function key(companyId: string, memberId: string, label = ''): Promise<string> {
    const prefix = `fwk_${newId().slice(-8)}`;
    await repo.insert({ id: newId(), prefix, keyHash: 'ab'.repeat(32), companyId, memberId, label });
    return prefix;
  }

  it('finds a key by prefix with its member and company, and only that key', async () => {
    const pa = await key(a.companyId, a.ownerId);
    const pb = await key(b.companyId, b.ownerId);
    const row = await repo.authRowByPrefix(pa);
    expect(row).toMatchObject({
      key_hash: 'ab'.repeat(32),
      revoked_at: null,
      member_id: a.ownerId,
      username: a.ownerUsername,
      active_status: 'active',
      company_id: a.companyId,
      owner_member_id: a.ownerId,
      timezone: 'UTC',
      workers_edit_job: false,
      workers_create_places: false,
      workers_view_places: true,
    });
    expect((await repo.authRowByPrefix(pb))?.company_id).toBe(b.companyId);
    expect(await repo.authRowByPrefix('fwk_unknown0')).toBeUndefined();
  });

  it('lists a member’s keys newest first; revokes by prefix once; revokes all of one member only', async () => {
    const username = `Keys-${newId()}@int.test`;
    const w = await createIntMember(ds, a.companyId, { username });
    const first = await key(a.companyId, w, 'first');
    await new Promise((r) => setTimeout(r, 5));
    const second = await key(a.companyId, w, 'second');
    const owners = await key(a.companyId, a.ownerId);
    const listed = await repo.listByUsername(username.toUpperCase());
    expect(listed.map((k) => [k.prefix, k.label, k.revokedAt])).toEqual([
      [second, 'second', null],
      [first, 'first', null],
    ]);
    expect(typeof listed[0].createdAt).toBe('number');

    expect(await repo.revokeByPrefix(first)).toBe(true);
    expect(await repo.revokeByPrefix(first)).toBe(false);
    expect(await repo.revokeByPrefix('fwk_nosuch00')).toBe(false);
    expect((await repo.authRowByPrefix(first))?.revoked_at).not.toBeNull();

    await repo.revokeAllOf(ds.manager, a.companyId, w);
    expect((await repo.listByUsername(username)).every((k) => k.revokedAt !== null)).toBe(true);
    expect((await repo.authRowByPrefix(owners))?.revoked_at).toBeNull();
  });
});
