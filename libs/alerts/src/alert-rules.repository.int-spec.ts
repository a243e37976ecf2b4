import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertRule } from './entities/alert-rule.entity';

/** A live `battery_low` rule of `companyId` (fields overridable). */
function intRule(companyId: string, over: Partial<AlertRule> = {}): AlertRule {
  return {
    id: newId(),
    companyId,
    title: 'Battery',
    description: '',
    action: 'battery_low',
    members: [],
    teams: [],
    placeId: null,
    zoneId: null,
    interval: null,
    threshold: 15,
    window: null,
    active: true,
    createdAt: Date.now(),
    updatedAt: null,
    deletedAt: null,
    ...over,
  };
}

describe('AlertRulesRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: AlertRulesRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new AlertRulesRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  it('inserts and finds the company live rules, oldest first, narrowed by ids and active', async () => {
    const r1 = intRule(a, { createdAt: 1000, teams: [3] });
    const r2 = intRule(a, { createdAt: 2000, active: false, window: { days: [1, 2], start: 800, end: 1700 } });
    const other = intRule(b, { createdAt: 500 });
    for (const r of [r2, other, r1]) await repo.insert(r);
    expect((await repo.findLive(a, {})).map((r) => r.id)).toEqual([r1.id, r2.id]);
    expect(await repo.findLive(a, { ids: [r2.id, other.id] })).toEqual([r2]);
    expect((await repo.findLive(a, { active: true })).map((r) => r.id)).toEqual([r1.id]);
    expect(await repo.findLive(b, { ids: [r1.id] })).toEqual([]);
  });

  it('locks and saves a live rule of the company; another company sees no rule', async () => {
    const r = intRule(a);
    await repo.insert(r);
    await repo.transaction(async (m) => {
      expect(await repo.lockLive(m, b, r.id)).toBeNull();
      const locked = await repo.lockLive(m, a, r.id);
      expect(locked).toEqual(r);
      await repo.save(m, { ...locked!, title: 'Edited', threshold: 9, updatedAt: 5 });
    });
    expect((await repo.findLive(a, { ids: [r.id] }))[0]).toMatchObject({ title: 'Edited', threshold: 9, updatedAt: 5 });
  });

  it('locks live ids and soft-deletes within the company only', async () => {
    const r = intRule(a);
    const other = intRule(b);
    await repo.insert(r);
    await repo.insert(other);
    await repo.transaction(async (m) => {
      expect([...(await repo.lockLiveIds(m, a, [r.id, other.id, 'nope']))]).toEqual([r.id]);
      await repo.softDelete(m, a, [r.id, other.id], 77);
    });
    expect(await repo.findLive(a, { ids: [r.id] })).toEqual([]);
    expect(await repo.findLive(b, { ids: [other.id] })).toHaveLength(1); // not a's to delete
    const [row] = await ds.query(`SELECT deleted_at::float8 AS d, updated_at::float8 AS u FROM alert_rules WHERE id = $1`, [r.id]);
    expect(row).toEqual({ d: 77, u: 77 });
    await repo.transaction(async (m) => expect([...(await repo.lockLiveIds(m, a, [r.id]))]).toEqual([]));
  });

  it('reads the company live and active rules as entities (numbers, not strings), and the teams they use', async () => {
    const { companyId: c } = await createIntCompany(ds);
    const live = intRule(c, { teams: [4, 5], interval: 600_000, action: 'idle', threshold: null, createdAt: 123 });
    await repo.insert(live);
    await repo.insert(intRule(c, { active: false, teams: [6] }));
    await repo.insert(intRule(c, { deletedAt: 1, teams: [7] }));
    await repo.insert(intRule(b, { teams: [8] }));
    expect(await repo.liveCompanyRules(ds, c)).toEqual([live]);
    // teams of live rules (an inactive rule still uses its teams; a deleted one does not)
    expect((await repo.teamsInUse(ds, c, [4, 5, 6, 7, 8])).sort()).toEqual([4, 5, 6]);
  });
});
