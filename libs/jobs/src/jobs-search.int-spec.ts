import { AuthContext, newId, OutboxRepository, OutboxStamping, StampParticipants } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { GetJobsDto } from './dto/get-jobs.dto';
import { Job } from './entities/job.entity';
import { JobView } from './job-view';
import { JobsQueryService } from './jobs-query.service';
import { JobStampsRepository } from './job-stamps.repository';
import { JobsRepository } from './jobs.repository';
import { newJobState } from './job-write';

/**
 * getjobs' filter matrix against PostgreSQL, without HTTP: the query service's rules (defaults, a
 * worker's own jobs, lookups) over {@link JobsRepository.search}. Moved down from
 * `test/jobs/jobs-getjobs.e2e-spec.ts`, which keeps what needs HTTP (the envelope, validation, the today
 * default from the caller's key, compact views) and one case per filter family.
 */

/** A fixed, far-future day: never "today", so only explicit `day` filters see it. */
const D = 20300115;
const D2 = 20300116;

const names = (jobs: JobView[]) => jobs.map((j) => j.destinationName);
const sortedNames = (jobs: JobView[]) => names(jobs).sort();

describe('getjobs search (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: JobsRepository;
  let queries: JobsQueryService;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new JobsRepository(ds);
    queries = new JobsQueryService(
      repo,
      new JobStampsRepository(ds),
      new OutboxStamping(new OutboxRepository(ds), new StampParticipants()),
    );
  });
  afterAll(() => ds.destroy());

  /** A company with its owner as the caller (role admin, zone `timezone`). */
  async function company(timezone = 'UTC'): Promise<{ id: string; staff: AuthContext }> {
    const c = await createIntCompany(ds, { timezone });
    return { id: c.companyId, staff: auth(c.companyId, c.ownerId, 'administrator', timezone) };
  }

  function auth(companyId: string, memberId: string, role: AuthContext['role'], timezone = 'UTC'): AuthContext {
    return {
      companyId,
      memberId,
      username: 'x',
      role,
      isOwner: false,
      keyPrefix: 'fwk_int',
      timezone,
      settings: {} as AuthContext['settings'],
    };
  }

  /** Inserts the jobs (`destinationName` and fields) as createjobs would; @returns them by name. */
  async function insert(companyId: string, jobs: Array<Partial<Job>>): Promise<Record<string, Job>> {
    const states = jobs.map((over) => ({
      ...newJobState({ id: newId(), companyId, isTemplate: false, createdBy: 'M', createdVia: 'api', now: Date.now() }),
      ...over,
    }));
    await repo.insertMany(ds, states);
    return Object.fromEntries(states.map((j) => [j.destinationName, j]));
  }

  const get = (ctx: AuthContext, q: Partial<GetJobsDto>) => queries.getJobs(ctx, q as GetJobsDto & { compact?: false });

  describe('day, and when the today default applies', () => {
    let c: { id: string; staff: AuthContext };
    let byName: Record<string, Job>;
    let other: { id: string; staff: AuthContext };
    let foreign: Job;

    beforeAll(async () => {
      c = await company('Pacific/Kiritimati');
      byName = await insert(c.id, [
        { destinationName: 'onD', day: D, orderId: 22 },
        { destinationName: 'onD2', day: D2, orderId: 33 },
        { destinationName: 'undated', day: 0, orderId: 44 },
      ]);
      other = await company();
      foreign = (await insert(other.id, [{ destinationName: 'foreign', day: D }])).foreign;
    });

    it('an explicit day selects that day only; 0 the undated jobs; -1 ignores the day', async () => {
      expect(names(await get(c.staff, { day: D }))).toEqual(['onD']);
      expect(names(await get(c.staff, { day: D2 }))).toEqual(['onD2']);
      expect(names(await get(c.staff, { day: 20300117 }))).toEqual([]);
      expect(names(await get(c.staff, { day: 0 }))).toEqual(['undated']);
      expect(sortedNames(await get(c.staff, { day: -1 }))).toEqual(['onD', 'onD2', 'undated']);
    });

    it('without day: today in the caller’s company zone; with sort: all days, an explicit day still filters', async () => {
      expect(await get(c.staff, {})).toEqual([]);
      expect(sortedNames(await get(c.staff, { sort: {} }))).toEqual(['onD', 'onD2', 'undated']);
      expect(sortedNames(await get(c.staff, { sort: { field: 'priority' } }))).toEqual(['onD', 'onD2', 'undated']);
      expect(names(await get(c.staff, { sort: {}, day: D }))).toEqual(['onD']);
      expect(names(await get(c.staff, { sort: {}, day: 0 }))).toEqual(['undated']);
    });

    it('id, ids, orderId and orderIds lift the today default; an explicit day still filters', async () => {
      expect(names(await get(c.staff, { id: byName.onD.id }))).toEqual(['onD']);
      expect(names(await get(c.staff, { id: byName.undated.id }))).toEqual(['undated']);
      expect(sortedNames(await get(c.staff, { ids: [byName.onD.id, byName.onD2.id] }))).toEqual(['onD', 'onD2']);
      expect(names(await get(c.staff, { orderId: 22 }))).toEqual(['onD']);
      expect(sortedNames(await get(c.staff, { orderIds: [33, 44] }))).toEqual(['onD2', 'undated']);
      expect(names(await get(c.staff, { id: byName.onD.id, day: D2 }))).toEqual([]);
      expect(names(await get(c.staff, { ids: [byName.onD.id, byName.onD2.id], day: D2 }))).toEqual(['onD2']);
      expect(names(await get(c.staff, { orderIds: [22, 33], day: D }))).toEqual(['onD']);
    });

    it('unknown ids and another company’s ids are simply not in the list', async () => {
      expect(names(await get(c.staff, { ids: [byName.onD.id, foreign.id, '01NOSUCHJOB0000000000000000'] }))).toEqual(['onD']);
      expect(await get(c.staff, { id: foreign.id })).toEqual([]);
      expect(await get(c.staff, { orderId: 22, day: -1 })).toHaveLength(1);
    });
  });

  describe('worker', () => {
    let c: { id: string; staff: AuthContext };
    let w1: { id: string; username: string };
    let w2: { id: string; username: string };
    let byName: Record<string, Job>;

    beforeAll(async () => {
      c = await company();
      const member = async () => {
        const username = `w-${newId().toLowerCase()}@int.test`;
        return { id: await createIntMember(ds, c.id, { username }), username };
      };
      w1 = await member();
      w2 = await member();
      byName = await insert(c.id, [
        { destinationName: 'w1', day: D, workerId: w1.id, orderId: 7 },
        { destinationName: 'w2', day: D, workerId: w2.id, orderId: 7 },
        { destinationName: 'nobody', day: D, orderId: 7 },
        { destinationName: 'w1-other-day', day: D2, workerId: w1.id },
      ]);
    });

    it('a username selects that worker’s jobs, case-insensitively', async () => {
      expect(names(await get(c.staff, { day: D, worker: w1.username }))).toEqual(['w1']);
      expect(names(await get(c.staff, { day: D, worker: w1.username.toUpperCase() }))).toEqual(['w1']);
      expect(names(await get(c.staff, { day: D, worker: w2.username }))).toEqual(['w2']);
      expect(sortedNames(await get(c.staff, { day: -1, worker: w1.username }))).toEqual(['w1', 'w1-other-day']);
    });

    it('"" selects unassigned jobs, "+" any assigned, "*" all; omitted = all', async () => {
      expect(names(await get(c.staff, { day: D, worker: '' }))).toEqual(['nobody']);
      expect(sortedNames(await get(c.staff, { day: D, worker: '+' }))).toEqual(['w1', 'w2']);
      expect(sortedNames(await get(c.staff, { day: D, worker: '*' }))).toEqual(['nobody', 'w1', 'w2']);
      expect(sortedNames(await get(c.staff, { day: D }))).toEqual(['nobody', 'w1', 'w2']);
    });

    it('an unknown username or another company’s member selects nothing', async () => {
      expect(await get(c.staff, { day: D, worker: 'nobody.at.all@example.test' })).toEqual([]);
      const other = await company();
      const username = `s-${newId().toLowerCase()}@int.test`;
      const stranger = await createIntMember(ds, other.id, { username });
      await insert(other.id, [{ destinationName: 'theirs', day: D, workerId: stranger }]);
      expect(await get(c.staff, { day: D, worker: username })).toEqual([]);
    });

    it('a worker sees only its own jobs: every worker filter, ids, orderId and sort are narrowed; "*" = own', async () => {
      const me = auth(c.id, w1.id, 'worker');
      expect(names(await get(me, { day: D }))).toEqual(['w1']);
      expect(names(await get(me, { day: D, worker: '*' }))).toEqual(['w1']);
      expect(names(await get(me, { day: D, worker: '+' }))).toEqual(['w1']);
      expect(names(await get(me, { day: D, worker: w1.username }))).toEqual(['w1']);
      expect(await get(me, { day: D, worker: '' })).toEqual([]);
      expect(await get(me, { day: D, worker: w2.username })).toEqual([]);
      expect(names(await get(auth(c.id, w2.id, 'worker'), { day: D, worker: '*' }))).toEqual(['w2']);
      expect(names(await get(me, { ids: [byName.w1.id, byName.w2.id, byName.nobody.id] }))).toEqual(['w1']);
      expect(await get(me, { id: byName.w2.id })).toEqual([]);
      expect(names(await get(me, { orderId: 7 }))).toEqual(['w1']);
      expect(sortedNames(await get(me, { sort: {} }))).toEqual(['w1', 'w1-other-day']);
      expect(sortedNames(await get(c.staff, { orderId: 7 }))).toEqual(['nobody', 'w1', 'w2']);
    });
  });

  describe('team, orderId, orderIds', () => {
    let c: { id: string; staff: AuthContext };

    beforeAll(async () => {
      c = await company();
      await insert(c.id, [
        { destinationName: 'north', day: D, teamId: 1, orderId: 100 },
        { destinationName: 'south', day: D, teamId: 2, orderId: 200 },
        { destinationName: 'none', day: D, orderId: 300 },
        { destinationName: 'north-later', day: D2, teamId: 1, orderId: 100 },
        { destinationName: 'big-order', day: 0, orderId: 9_007_199_254_740 },
      ]);
    });

    it('team selects that team only', async () => {
      expect(names(await get(c.staff, { day: D, team: 1 }))).toEqual(['north']);
      expect(names(await get(c.staff, { day: D, team: 2 }))).toEqual(['south']);
      expect(sortedNames(await get(c.staff, { day: -1, team: 1 }))).toEqual(['north', 'north-later']);
      expect(await get(c.staff, { day: D, team: 3 })).toEqual([]);
    });

    it('orderId selects one order on any day; orderIds several; both compose with team and day', async () => {
      expect(sortedNames(await get(c.staff, { orderId: 100 }))).toEqual(['north', 'north-later']);
      expect(names(await get(c.staff, { orderId: 9_007_199_254_740 }))).toEqual(['big-order']);
      expect(await get(c.staff, { orderId: 999 })).toEqual([]);
      expect(sortedNames(await get(c.staff, { orderIds: [200, 300] }))).toEqual(['none', 'south']);
      expect(sortedNames(await get(c.staff, { orderIds: [100, 9_007_199_254_740] }))).toEqual(['big-order', 'north', 'north-later']);
      expect(await get(c.staff, { orderIds: [] })).toEqual([]);
      expect(names(await get(c.staff, { orderIds: [100], team: 1, day: D2 }))).toEqual(['north-later']);
    });
  });

  describe('progress filters and sort.status', () => {
    let c: { id: string; staff: AuthContext };
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
      c = await company();
      await insert(c.id, [
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

    it('progressSuccess 1: only tsDoneSuccess > 0; progressActive 1: neither done; 0 (default) all', async () => {
      expect(sortedNames(await get(c.staff, { day: D, progressSuccess: 1 }))).toEqual(['success', 'success-after-checkin']);
      expect(sortedNames(await get(c.staff, { day: D, progressSuccess: 0 }))).toEqual(ALL);
      expect(sortedNames(await get(c.staff, { day: D, progressActive: 1 }))).toEqual([
        'accepted',
        'rejected',
        'rejected-after-accept',
        'rejected-after-checkin',
        'scheduled',
        'started',
      ]);
      expect(sortedNames(await get(c.staff, { day: D, progressActive: 0 }))).toEqual(ALL);
      expect(await get(c.staff, { day: D, progressActive: 1, progressSuccess: 1 })).toEqual([]);
    });

    it.each([
      [0, ['scheduled']],
      [1, ['accepted']],
      [2, ['rejected', 'rejected-after-accept', 'rejected-after-checkin']],
      [3, ['started']],
      [4, ['success', 'success-after-checkin']],
      [5, ['failed']],
      [-1, ALL],
    ])('sort.status %i selects that progress', async (status, expected) => {
      const got = await get(c.staff, { sort: { status } });
      expect(sortedNames(got)).toEqual(expected);
      const progress = ['scheduled', 'accepted', 'rejected', 'started', 'success', 'failed'];
      if (status >= 0) expect(got.every((j) => j.progress === progress[status])).toBe(true);
    });
  });

  describe('includeArchived and templates', () => {
    let c: { id: string; staff: AuthContext };
    let byName: Record<string, Job>;

    beforeAll(async () => {
      c = await company();
      byName = await insert(c.id, [
        { destinationName: 'live', day: D },
        { destinationName: 'archived', day: D, archived: true },
        { destinationName: 'tpl-a', day: D, isTemplate: true },
        { destinationName: 'tpl-b', day: 0, isTemplate: true },
      ]);
    });

    it('archived jobs are hidden by default, included with includeArchived 1 or a lookup by id/ids (not by orderId)', async () => {
      expect(names(await get(c.staff, { day: D }))).toEqual(['live']);
      expect(names(await get(c.staff, { day: D, includeArchived: 0 }))).toEqual(['live']);
      expect(names(await get(c.staff, { sort: {} }))).toEqual(['live']);
      expect(names(await get(c.staff, { day: -1, worker: '' }))).toEqual(['live']);
      expect(sortedNames(await get(c.staff, { day: D, includeArchived: 1 }))).toEqual(['archived', 'live']);
      expect(sortedNames(await get(c.staff, { sort: {}, includeArchived: 1 }))).toEqual(['archived', 'live']);
      expect(names(await get(c.staff, { id: byName.archived.id }))).toEqual(['archived']);
      expect(names(await get(c.staff, { ids: [byName.archived.id] }))).toEqual(['archived']);
    });

    it('templates: true answers only templates (ids with or without tpl-); templates never appear otherwise', async () => {
      const tpl = await get(c.staff, { templates: true });
      expect(sortedNames(tpl)).toEqual(['tpl-a', 'tpl-b']);
      expect(tpl.every((t) => t.id.startsWith('tpl-') && t.isTemplate)).toBe(true);
      expect(names(await get(c.staff, { templates: true, id: `tpl-${byName['tpl-b'].id}` }))).toEqual(['tpl-b']);
      expect(names(await get(c.staff, { templates: true, id: byName['tpl-b'].id }))).toEqual(['tpl-b']);
      expect(names(await get(c.staff, { day: -1 }))).toEqual(['live']);
      expect(names(await get(c.staff, { day: 0 }))).toEqual([]);
      expect(names(await get(c.staff, { day: -1, includeArchived: 1, worker: '*' })).sort()).toEqual(['archived', 'live']);
      const raw = [byName['tpl-a'].id, byName['tpl-b'].id];
      expect(names(await get(c.staff, { ids: [...raw.map((id) => `tpl-${id}`), ...raw, byName.live.id] }))).toEqual(['live']);
      expect(await get(c.staff, { templates: false, id: `tpl-${raw[0]}` })).toEqual([]);
    });
  });

  describe('order and limits', () => {
    it('without sort: number, then tsCreated, whatever the filters; at most 1,000 rows', async () => {
      const c = await company();
      await insert(c.id, [
        { destinationName: 'A', day: D, number: 2, tsCreated: 1000 },
        { destinationName: 'B', day: D, number: 1, tsCreated: 3000 },
        { destinationName: 'C', day: D, number: 1, tsCreated: 2000 },
        { destinationName: 'D', day: D, number: 0, tsCreated: 5000 },
        { destinationName: 'E', day: D, number: 3, tsCreated: 500 },
        { destinationName: 'F', day: D, number: -5, tsCreated: 9000 },
        { destinationName: 'G', day: D, number: 1, tsCreated: 2500 },
      ]);
      expect(names(await get(c.staff, { day: D }))).toEqual(['F', 'D', 'C', 'G', 'B', 'A', 'E']);
      expect(names(await get(c.staff, { day: -1, worker: '' }))).toEqual(['F', 'D', 'C', 'G', 'B', 'A', 'E']);

      const big = await company();
      await insert(
        big.id,
        Array.from({ length: 1003 }, (_, i) => ({ destinationName: `n${i + 1}`, day: D, number: i + 1 })),
      );
      const got = await get(big.staff, { day: D });
      expect(got.map((j) => j.number)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    });

    describe('sort: field, ascending, limit, skip, from, until', () => {
      let c: { id: string; staff: AuthContext };
      let jobs: Job[];
      const BASE = 1_700_000_000_000;
      const DONE = 1_750_000_000_000;
      const N = 25;

      beforeAll(async () => {
        c = await company();
        // inserted out of order; tsCreated, priority and number each order them differently
        const order = Array.from({ length: N }, (_, i) => (i * 7) % N);
        jobs = Object.values(
          await insert(
            c.id,
            order.map((i) => ({
              destinationName: `j${String(i).padStart(2, '0')}`,
              day: [D, D2, 0][i % 3],
              tsCreated: BASE + i * 1000,
              priority: (i * 3) % 11,
              number: 100 - i,
              ...(i < 5 ? { tsDoneSuccess: DONE + (4 - i) * 1000 } : {}),
            })),
          ),
        );
      });

      const byTsCreated = () => [...jobs].sort((a, b) => a.tsCreated - b.tsCreated).map((j) => j.destinationName);

      async function pages(sort: Record<string, unknown>, limit: number): Promise<JobView[][]> {
        const out: JobView[][] = [];
        for (let skip = 0; skip < N + limit; skip += limit) out.push(await get(c.staff, { sort: { ...sort, limit, skip } }));
        return out;
      }

      it('defaults: tsCreated ascending, all days; pages ascending and descending neither overlap nor miss', async () => {
        expect(names(await get(c.staff, { sort: {} }))).toEqual(byTsCreated());
        const asc = await pages({ field: 'tsCreated', ascending: true }, 10);
        expect(asc.map((x) => x.length)).toEqual([10, 10, 5, 0]);
        expect(names(asc.flat())).toEqual(byTsCreated());
        const desc = await pages({ field: 'tsCreated', ascending: false }, 7);
        expect(desc.map((x) => x.length)).toEqual([7, 7, 7, 4, 0]);
        expect(names(desc.flat())).toEqual(byTsCreated().reverse());
      });

      it('priority with ties: pages do not overlap, cover all, and are ordered; number descending', async () => {
        const all = (await pages({ field: 'priority' }, 4)).flat();
        expect(new Set(all.map((j) => j.id)).size).toBe(N);
        const prio = all.map((j) => j.priority);
        expect(prio).toEqual([...prio].sort((x, y) => x - y));
        const desc = (await pages({ field: 'priority', ascending: false }, 6)).flat();
        expect(new Set(desc.map((j) => j.id)).size).toBe(N);
        expect(desc.map((j) => j.priority)).toEqual([...prio].sort((x, y) => y - x));
        const byNumber = await get(c.staff, { sort: { field: 'number', ascending: false } });
        expect(byNumber.map((j) => j.number)).toEqual(Array.from({ length: N }, (_, i) => 100 - i));
      });

      it('from/until bound tsCreated as [from, until), also under a non-timestamp field; a timestamp field bounds itself', async () => {
        expect(names(await get(c.staff, { sort: { field: 'tsCreated', from: BASE + 5000, until: BASE + 10000 } }))).toEqual([
          'j05',
          'j06',
          'j07',
          'j08',
          'j09',
        ]);
        expect(names(await get(c.staff, { sort: { from: BASE + 24000 } }))).toEqual(['j24']);
        expect(names(await get(c.staff, { sort: { until: BASE + 1000 } }))).toEqual(['j00']);
        expect(await get(c.staff, { sort: { from: BASE + 3000, until: BASE + 3000 } })).toEqual([]);
        const byPriority = await get(c.staff, { sort: { field: 'priority', from: BASE + 5000, until: BASE + 10000 } });
        expect(sortedNames(byPriority)).toEqual(['j05', 'j06', 'j07', 'j08', 'j09']);
        expect(names(await get(c.staff, { sort: { field: 'tsDoneSuccess', from: DONE + 1000, until: DONE + 3000 } }))).toEqual([
          'j03',
          'j02',
        ]);
        expect(names(await get(c.staff, { sort: { field: 'tsDoneSuccess', ascending: false, from: DONE } }))).toEqual([
          'j00',
          'j01',
          'j02',
          'j03',
          'j04',
        ]);
        expect(await get(c.staff, { sort: { field: 'tsDoneSuccess', from: BASE, until: BASE + N * 1000 } })).toEqual([]);
      });

      it('sort composes with day and the other filters', async () => {
        expect(names(await get(c.staff, { day: D2, sort: { field: 'tsCreated', ascending: false, limit: 3 } }))).toEqual([
          'j22',
          'j19',
          'j16',
        ]);
        expect(sortedNames(await get(c.staff, { sort: { status: 4 } }))).toEqual(['j00', 'j01', 'j02', 'j03', 'j04']);
      });
    });

    it('sort limit defaults to 100: the rest with skip, up to 1,000 with limit', async () => {
      const c = await company();
      await insert(
        c.id,
        Array.from({ length: 105 }, (_, i) => ({ destinationName: `j${i}`, day: D, tsCreated: 1_700_000_000_000 + i })),
      );
      const first = await get(c.staff, { sort: {} });
      expect(names(first)).toEqual(Array.from({ length: 100 }, (_, i) => `j${i}`));
      expect(names(await get(c.staff, { sort: { skip: 100 } }))).toEqual(['j100', 'j101', 'j102', 'j103', 'j104']);
      expect(await get(c.staff, { sort: { limit: 1000 } })).toHaveLength(105);
      expect(await get(c.staff, { day: D, sort: { field: 'number' } })).toHaveLength(100);
    });
  });
});
