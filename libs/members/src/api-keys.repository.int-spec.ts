import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, IntCompany, openIntegrationDb } from '@test/support/integration';
import { ApiKeysRepository, PREFIX_TAKEN } from './api-keys.repository';

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

  it('writes a key and its api_key_prefixes row in one statement: a taken prefix (any company) or a failing key row leaves neither', async () => {
    const pa = await key(a.companyId, a.ownerId, 'lookup');
    const [lookup] = await ds.query(`SELECT company_id, api_key_id FROM api_key_prefixes WHERE prefix = $1`, [pa]);
    const [stored] = await ds.query(`SELECT id FROM api_keys WHERE company_id = $1 AND prefix = $2`, [a.companyId, pa]);
    expect(lookup).toEqual({ company_id: a.companyId, api_key_id: stored.id });

    const keysOfB = async () =>
      (await ds.query(`SELECT count(*)::int AS n FROM api_keys WHERE company_id = $1`, [b.companyId]))[0].n as number;
    const before = await keysOfB();
    const taken = repo.insert({
      id: newId(),
      prefix: pa,
      keyHash: 'cd'.repeat(32),
      companyId: b.companyId,
      memberId: b.ownerId,
      label: '',
    });
    await expect(taken).rejects.toMatchObject({ driverError: { code: '23505', constraint: PREFIX_TAKEN } });
    expect(await keysOfB()).toBe(before);

    // the key row fails (its id is taken in the company) after the prefix row: the prefix row is gone too
    const fresh = `fwk_${newId().slice(-8)}`;
    const dup = repo.insert({
      id: stored.id,
      prefix: fresh,
      keyHash: 'cd'.repeat(32),
      companyId: a.companyId,
      memberId: a.ownerId,
      label: '',
    });
    await expect(dup).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'PK_api_keys' } });
    expect(await ds.query(`SELECT 1 FROM api_key_prefixes WHERE prefix = $1`, [fresh])).toEqual([]);

    // revoking keeps the prefix row: the key is still answered (as revoked) and the prefix never issued again
    expect(await repo.revokeByPrefix(pa)).toBe(true);
    expect((await repo.authRowByPrefix(pa))?.revoked_at).not.toBeNull();
    expect(await ds.query(`SELECT 1 AS one FROM api_key_prefixes WHERE prefix = $1`, [pa])).toEqual([{ one: 1 }]);
  });

  it('finds keys only through api_key_prefixes: a key row without its lookup row is unknown', async () => {
    const prefix = `fwk_${newId().slice(-8)}`;
    await ds.query(
      `INSERT INTO api_keys (id, prefix, key_hash, company_id, member_id, label, created_at) VALUES ($1, $2, $3, $4, $5, '', 1)`,
      [newId(), prefix, 'ab'.repeat(32), a.companyId, a.ownerId],
    );
    expect(await repo.authRowByPrefix(prefix)).toBeUndefined();
    expect(await repo.revokeByPrefix(prefix)).toBe(false);
  });
});
