import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * createjobs and editjobs validation over real HTTP against real PostgreSQL: every RW field of
 * the job with bad values answers -1/400 naming the field's path, and nothing of the call is
 * written (jobs, outbox events, notifications), also when the bad job comes after good ones that
 * were already applied inside the transaction.
 */

type Job = Record<string, any> & { id: string };
type Member = { uid: string; username: string; key: string };
type Res = { http: number; body: { status: number; error?: string } & Record<string, unknown> };

const D = 20300115;
const TS = 1_800_000_000_000;

/** Members, places and jobs the cases refer to, filled in `beforeAll`. */
const refs = {
  w1: undefined as unknown as Member,
  w2: undefined as unknown as Member,
  deactivated: undefined as unknown as Member,
  foreign: undefined as unknown as Member,
  place: '',
  foreignPlace: '',
};

const manyCustomFields = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, val: `v${i}` }));
const manyCustomKeys = (n: number, prefix = 'c') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`custom_${prefix}${i}`, 'x']));

/** [label, the bad job fields, the field(s) the error may name (the first segment after the job path)] */
type Case = [string, () => Record<string, unknown>, string[]];
const bad = (field: string, value: unknown, named: string[] = [field]): Case => [
  `${field}: ${JSON.stringify(value)?.slice(0, 40)}`,
  () => ({ [field]: value }),
  named,
];
const badWith = (label: string, make: () => Record<string, unknown>, named: string[]): Case => [label, make, named];

const TIMESTAMPS = [
  'tsCreated',
  'tsAccepted',
  'tsRejected',
  'tsDoneSuccess',
  'tsDoneFailed',
  'tsCheckIn',
  'tsCheckOut',
  'tsCheckNFC1',
  'tsCheckNFC2',
];

/** Bad values of every RW field: refused alike by createjobs and editjobs. */
const BAD: Case[] = [
  bad('type', 3),
  bad('type', -1),
  bad('type', '1'),
  bad('type', 1.5),
  bad('type', null),
  bad('teamId', 99),
  bad('teamId', -1),
  bad('teamId', 1.5),
  bad('teamId', '1'),
  bad('destinationName', 5),
  bad('destinationName', 'x'.repeat(501)),
  bad('destinationName', null),
  bad('destinationLat', 90.0001),
  bad('destinationLat', -91),
  bad('destinationLat', '45'),
  bad('destinationLng', 180.5),
  bad('destinationLng', -181),
  bad('destinationLng', {}),
  bad('destinationText', 5),
  bad('destinationText', 'x'.repeat(2001)),
  bad('destinationUrl', 'ftp://example.test/map'),
  bad('destinationUrl', 'example.test/map'),
  bad('destinationUrl', 'https://exa mple.test'),
  bad('destinationUrl', 5),
  bad('textDispatcher', []),
  bad('textDispatcher', 'x'.repeat(10001)),
  bad('textReceiver', 5),
  bad('contactName', 5),
  bad('contactName', 'x'.repeat(201)),
  bad('contactPhone', 'x'.repeat(65)),
  bad('contactPhone', 'call\nme'),
  bad('contactPhone', 386),
  bad('contactEmail', 'no-at'),
  bad('contactEmail', 'Ana <ana@>'),
  bad('contactEmail', 'ana@'),
  bad('contactEmail', 5),
  bad('day', 20261332),
  bad('day', 20260230),
  bad('day', 2026011),
  bad('day', '20260101'),
  bad('day', -1),
  bad('day', 20260101.5),
  bad('day', null),
  bad('priority', 11),
  bad('priority', -1),
  bad('priority', 1.5),
  bad('priority', '5'),
  bad('priority', null),
  bad('number', 1.5),
  bad('number', 2 ** 31),
  bad('number', -(2 ** 31) - 1),
  bad('number', '1'),
  bad('onSiteSeconds', -1),
  bad('onSiteSeconds', 604801),
  bad('onSiteSeconds', 1.5),
  bad('windowStart', 2400),
  bad('windowStart', 960),
  bad('windowStart', 2360),
  bad('windowStart', -100),
  bad('windowStart', 900.5),
  bad('windowStart', '900'),
  bad('windowEnd', 2401),
  bad('windowEnd', 2360),
  bad('windowEnd', 961),
  bad('windowEnd', -1),
  bad('windowEnd', null),
  badWith('windowStart after windowEnd', () => ({ windowStart: 1300, windowEnd: 1200 }), ['windowEnd', 'windowStart']),
  badWith('windowStart after windowEnd 2400', () => ({ windowStart: 2359, windowEnd: 2300 }), ['windowEnd', 'windowStart']),
  bad('orderId', -1),
  bad('orderId', 1.5),
  bad('orderId', '5'),
  bad('orderId', Number.MAX_SAFE_INTEGER + 2),
  badWith('dispatcherUid: unknown member', () => ({ dispatcherUid: '01NOSUCHMEMBER000000000000' }), ['dispatcherUid']),
  badWith('dispatcherUid: another company’s member', () => ({ dispatcherUid: refs.foreign.uid }), ['dispatcherUid']),
  badWith('dispatcherUid: deactivated member', () => ({ dispatcherUid: refs.deactivated.uid }), ['dispatcherUid']),
  bad('dispatcherUid', 5),
  bad('dispatcherUid', 'x'.repeat(65)),
  badWith('placeUid: unknown place', () => ({ placeUid: '01NOSUCHPLACE0000000000000' }), ['placeUid']),
  badWith('placeUid: another company’s place', () => ({ placeUid: refs.foreignPlace }), ['placeUid']),
  bad('placeUid', 5),
  badWith('worker: unknown username', () => ({ worker: 'nobody.at.all@example.test' }), ['worker']),
  badWith('worker: another company’s member', () => ({ worker: refs.foreign.username }), ['worker']),
  badWith('worker: deactivated member', () => ({ worker: refs.deactivated.username }), ['worker']),
  badWith('worker: a uid instead of a username', () => ({ worker: refs.w1.uid }), ['worker']),
  bad('worker', 5),
  bad('worker', null),
  badWith('receiverUid: unknown uid', () => ({ receiverUid: '01NOSUCHMEMBER000000000000' }), ['receiverUid']),
  badWith('receiverUid: another company’s member', () => ({ receiverUid: refs.foreign.uid }), ['receiverUid']),
  badWith('receiverUid: deactivated member', () => ({ receiverUid: refs.deactivated.uid }), ['receiverUid']),
  badWith('receiverUid: a username instead of a uid', () => ({ receiverUid: refs.w1.username }), ['receiverUid']),
  bad('receiverUid', 5),
  bad('receiverUid', null),
  badWith('worker and receiverUid disagree', () => ({ worker: refs.w1.username, receiverUid: refs.w2.uid }), ['worker', 'receiverUid']),
  badWith('worker "" and receiverUid disagree', () => ({ worker: '', receiverUid: refs.w2.uid }), ['worker', 'receiverUid']),
  badWith('worker and receiverUid "" disagree', () => ({ worker: refs.w2.username, receiverUid: '' }), ['worker', 'receiverUid']),
  bad('itemsToDropoff', -1),
  bad('itemsToDropoff', 1.5),
  bad('itemsToDropoff', '3'),
  bad('itemsToPickup', -1),
  bad('itemsToPickup', 1000001),
  bad('itemsToPickup', null),
  bad('uidSecondary', 5),
  bad('uidSecondary', 'x'.repeat(201)),
  bad('uidSecondary', {}),
  bad('customFields', {}),
  bad('customFields', 'gate=4'),
  bad('customFields', null),
  bad('customFields', [5]),
  bad('customFields', [{ key: 'bad key', val: 'x' }]),
  bad('customFields', [{ key: '', val: 'x' }]),
  bad('customFields', [{ key: 'k'.repeat(41), val: 'x' }]),
  bad('customFields', [{ key: 'gate', val: 4 }]),
  bad('customFields', [{ key: 'gate' }]),
  bad('customFields', [{ key: 'gate', val: 'x'.repeat(2001) }]),
  bad('customFields', [{ key: 'gate', val: '4', color: 'red' }]),
  badWith('customFields: 51 entries', () => ({ customFields: manyCustomFields(51) }), ['customFields']),
  bad('custom_bad-name', 'x'),
  bad('custom_', 'x'),
  bad(`custom_${'k'.repeat(41)}`, 'x'),
  bad('custom_gate', 4),
  bad('custom_gate', null),
  bad('custom_gate', ['4']),
  bad('custom_gate', 'x'.repeat(2001)),
  badWith('51 custom_<name> keys', () => manyCustomKeys(51), ['customFields', 'custom_']),
  badWith('customFields 40 + custom_<name> 11', () => ({ customFields: manyCustomFields(40), ...manyCustomKeys(11) }), [
    'customFields',
    'custom_',
  ]),
  bad('extra_number_1_val', 'three'),
  bad('extra_number_1_val', '3'),
  bad('extra_number_1_val', null),
  bad('extra_number_4_val', true),
  bad('extra_text_2_val', 5),
  bad('extra_text_2_val', null),
  bad('extra_text_1_val', 'x'.repeat(2001)),
  bad('extra_number_1_key', 'Weight'),
  bad('extra_text_4_key', ''),
  ...TIMESTAMPS.flatMap((f) => [bad(f, -1), bad(f, TS + 0.5), bad(f, String(TS)), bad(f, null)]),
  badWith('tsDoneSuccess and tsDoneFailed together', () => ({ tsDoneSuccess: TS, tsDoneFailed: TS + 1 }), [
    'tsDoneSuccess',
    'tsDoneFailed',
  ]),
  // read-only fields, even with the value the job has
  ...[
    ['id', '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['status', 'archived'],
    ['status', ''],
    ['tsAssigned', TS],
    ['tsSaved', TS],
    ['tsScheduled', 0],
    ['scheduledStart', 0],
    ['scheduledEnd', 0],
    ['version', 1],
    ['progress', 'scheduled'],
    ['createdAt', TS],
    ['createdBy', ''],
    ['createdVia', 'api'],
    ['dispatcherName', ''],
    ['dispatcherUrl', ''],
    ['placeName', ''],
    ['placeUrl', ''],
    ['radius', 100],
    ['workerName', ''],
    ['assigneeName', ''],
    ['assigneeUsername', ''],
    ['workerEmail', ''],
    ['workerPhone', ''],
  ].map(([f, v]) => bad(f as string, v)),
  // unknown keys: typos never vanish
  bad('foo', 1),
  bad('Priority', 1),
  bad('destination_name', 'x'),
  bad('tsCheckNfc1', TS),
  bad('extra_number_5_val', 1),
  bad('extra_number_0_val', 1),
  bad('extra_date_1_val', 'x'),
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * -1/400, no `jobs`, and an `error` that starts with one of `paths` followed by `:`, `.` or `[`
 * (a path ending in `custom_` stands for any `custom_<name>`).
 */
function expectRefused(res: Res, paths: string[]): void {
  expect({ http: res.http, status: res.body.status }).toEqual({ http: 400, status: -1 });
  expect(res.body).not.toHaveProperty('jobs');
  const alternatives = paths.map((p) => escape(p).replace(/custom_$/, 'custom_\\w*'));
  expect(res.body.error).toMatch(new RegExp(`^(${alternatives.join('|')})([.[][^:]*)?: \\S`));
}

describe('job write validation', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
    const teams = [
      { id: 1, name: 'North' },
      { id: 2, name: 'South' },
    ];
    expect((await action(api, 'editcompany', { teams_config: teams }, { key: company.key })).body.status).toBe(0);
    refs.w1 = await createMember(api, company, { role: 'worker' });
    refs.w2 = await createMember(api, company, { role: 'worker' });
    refs.deactivated = await createMember(api, company, { role: 'worker' });
    expect((await action(api, 'deleteaccount', { uid: refs.deactivated.uid }, { key: company.key })).body.status).toBe(0);
    const other = await createCompany(api);
    refs.foreign = await createMember(api, other, { role: 'worker' });
    refs.place = newId();
    refs.foreignPlace = newId();
    for (const [id, companyId] of [
      [refs.place, company.companyUid],
      [refs.foreignPlace, other.companyUid],
    ]) {
      await db.query(`INSERT INTO places (id, company_id, name, radius, created_at) VALUES ($1, $2, 'Depot', 0, $3)`, [
        id,
        companyId,
        Date.now(),
      ]);
    }
  });
  afterAll(() => api.close());

  const call = (name: string, data: unknown, key = company.key) => action(api, name, data, { key }) as Promise<Res>;

  /**
   * What a call could write for a company: its jobs (whole rows but the commit stamps, which the
   * stamper sets after earlier writes at its own pace), outbox events and notifications.
   */
  async function written(companyId = company.companyUid) {
    const [jobs, outbox, notifications] = await Promise.all([
      db
        .query(`SELECT * FROM jobs WHERE company_id = $1 ORDER BY id`, [companyId])
        .then((rows: Array<Record<string, unknown>>) => rows.map(({ created_stamp: _c, saved_stamp: _s, ...rest }) => rest)),
      db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE company_id = $1 AND action <> 'notification'`, [companyId]),
      db.query(`SELECT count(*)::int AS n FROM notifications WHERE company_id = $1`, [companyId]),
    ]);
    return { jobCount: jobs.length, jobs, outbox: outbox[0].n, notifications: notifications[0].n };
  }

  /** A good job that exercises the reference checks (team, assignee, dispatcher, place, custom fields). */
  const good = (name: string) => ({
    destinationName: name,
    day: D,
    teamId: 1,
    worker: refs.w1.username,
    dispatcherUid: company.ownerUid,
    placeUid: refs.place,
    customFields: [{ key: 'gate', val: '4' }],
    custom_floor: '2',
    extra_number_1_val: 1.5,
    windowStart: 800,
    windowEnd: 1700,
  });

  async function createOne(fields: Record<string, unknown>): Promise<Job> {
    const res = await call('createjobs', { jobs: [fields] });
    if (res.body.status !== 0) throw new Error(`createjobs failed: ${JSON.stringify(res.body)}`);
    return (res.body.jobs as Job[])[0];
  }

  describe('createjobs: a bad value in the last job of a batch', () => {
    it('the good jobs alone are created (so the checks below can tell)', async () => {
      const before = await written();
      const res = await call('createjobs', { jobs: [good('g1'), good('g2')] });
      expect(res.body.status).toBe(0);
      const after = await written();
      expect(after.jobCount).toBe(before.jobCount + 2);
      expect(after.outbox).toBe(before.outbox + 2);
    });

    it.each(BAD)('%s → -1 naming data.jobs[2].<field>, nothing written', async (_label, make, named) => {
      const before = await written();
      const res = await call('createjobs', { jobs: [good('g1'), good('g2'), { ...good('bad'), ...make() }] });
      expectRefused(
        res,
        named.map((f) => `data.jobs[2].${f}`),
      );
      expect(await written()).toEqual(before);
    });

    it('a bad value in the first job names index 0', async () => {
      const res = await call('createjobs', { jobs: [{ priority: 11 }, good('g')] });
      expectRefused(res, ['data.jobs[0].priority']);
    });
  });

  describe('editjobs: a bad value for the second of two jobs', () => {
    let j1: Job;
    let j2: Job;
    const firstEdit = () => ({
      destinationName: 'changed',
      priority: 9,
      worker: refs.w2.username,
      custom_new: 'v',
      customFields: [{ key: 'a', val: 'b' }],
      windowEnd: 1000,
      tsDoneSuccess: TS,
      uidSecondary: `first-${newId()}`,
    });

    beforeAll(async () => {
      j1 = await createOne({ ...good('first'), uidSecondary: `j1-${newId()}` });
      j2 = await createOne({ ...good('second'), windowStart: 1000, windowEnd: 1200, customFields: [{ key: 'kept', val: '1' }] });
    });

    it('the first edit alone is written (so the checks below can tell)', async () => {
      const probe = await createOne(good('probe'));
      const before = await written();
      const res = await call('editjobs', { jobs: { [probe.id]: firstEdit() } });
      expect(res.body.status).toBe(0);
      const after = await written();
      expect(after.jobs).not.toEqual(before.jobs);
      expect(after.outbox).toBe(before.outbox + 1);
      expect(after.notifications).toBeGreaterThan(before.notifications); // notify (default true) on completion
      expect((res.body.jobs as Job[])[0]).toMatchObject({ destinationName: 'changed', priority: 9, worker: refs.w2.username });
    });

    it.each(BAD)('%s → -1 naming data.jobs.<id>.<field>, the first job unchanged', async (_label, make, named) => {
      const before = await written();
      const res = await call('editjobs', { jobs: { [j1.id]: firstEdit(), [j2.id]: make() } });
      expectRefused(
        res,
        named.map((f) => `data.jobs.${j2.id}.${f}`),
      );
      expect(await written()).toEqual(before);
    });

    // rules that depend on what the job already holds: they fail inside the transaction, after
    // the first job's update was sent to the database
    it.each([
      badWith('windowStart after the stored windowEnd (1200)', () => ({ windowStart: 1300 }), ['windowStart', 'windowEnd']),
      badWith('windowEnd before the stored windowStart (1000)', () => ({ windowEnd: 900 }), ['windowEnd', 'windowStart']),
      badWith('50 new custom_<name> keys on top of a stored one', () => manyCustomKeys(50), ['customFields', 'custom_']),
    ])('%s → -1, the first job unchanged', async (_label, make, named) => {
      const before = await written();
      const res = await call('editjobs', { jobs: { [j1.id]: firstEdit(), [j2.id]: make() } });
      expectRefused(
        res,
        named.map((f) => `data.jobs.${j2.id}.${f}`),
      );
      expect(await written()).toEqual(before);
    });

    it('a value that is not an object of fields is refused naming the job', async () => {
      for (const value of [null, 5, 'x', [], [{ priority: 1 }]]) {
        const before = await written();
        const res = await call('editjobs', { jobs: { [j1.id]: firstEdit(), [j2.id]: value } });
        expectRefused(res, [`data.jobs.${j2.id}`]);
        expect(await written()).toEqual(before);
      }
    });

    it('an unknown job id answers 1001/404 naming it, and nothing is written', async () => {
      const other = await createCompany(api);
      const otherRes = await action<{ jobs: Job[] }>(api, 'createjobs', { jobs: [{ destinationName: 'theirs' }] }, { key: other.key });
      const theirs = otherRes.body.jobs[0].id;
      const [template] = (await call('createjobs', { jobs: [{ destinationName: 'tpl' }], isTemplate: true })).body.jobs as Job[];
      const rawTemplate = template.id.replace(/^tpl-/, '');
      for (const unknown of ['01NOSUCHJOB000000000000000', theirs, rawTemplate, `tpl-${j2.id}`]) {
        const before = await written();
        const res = await call('editjobs', { jobs: { [j1.id]: firstEdit(), [unknown]: { priority: 1 } } });
        expect({ http: res.http, status: res.body.status }).toEqual({ http: 404, status: 1001 });
        expect(res.body.error).toContain(unknown);
        expect(res.body).not.toHaveProperty('jobs');
        expect(await written()).toEqual(before);
      }
      // and the other company's job is untouched
      const [row] = await db.query(`SELECT priority, version FROM jobs WHERE id = $1`, [theirs]);
      expect(row).toEqual({ priority: 0, version: 1 });
    });

    it('a uidSecondary another job already has → refused naming it, nothing written', async () => {
      const taken = `taken-${newId()}`;
      await createOne({ destinationName: 'holder', uidSecondary: taken });
      const before = await written();
      const res = await call('editjobs', { jobs: { [j1.id]: firstEdit(), [j2.id]: { uidSecondary: taken } } });
      expect([
        [400, -1],
        [409, -4],
      ]).toContainEqual([res.http, res.body.status]);
      expect(res.body.error).toMatch(new RegExp(`^${escape(`data.jobs.${j2.id}.uidSecondary`)}: \\S`));
      expect(await written()).toEqual(before);
    });

    it('two jobs of one call set to one new uidSecondary → refused, nothing written', async () => {
      const same = `same-${newId()}`;
      const before = await written();
      const res = await call('editjobs', { jobs: { [j1.id]: { uidSecondary: same }, [j2.id]: { uidSecondary: same } } });
      expect([
        [400, -1],
        [409, -4],
      ]).toContainEqual([res.http, res.body.status]);
      expect(res.body.error).toMatch(/^data\.jobs\.[0-9A-Z]+\.uidSecondary/);
      expect(await written()).toEqual(before);
    });

    it('an empty or over-long job id is refused as -1, nothing written', async () => {
      for (const id of ['', 'x'.repeat(65)]) {
        const before = await written();
        const res = await call('editjobs', { jobs: { [j1.id]: firstEdit(), [id]: { priority: 1 } } });
        expectRefused(res, [`data.jobs`]);
        expect(await written()).toEqual(before);
      }
    });

    it('unknown keys in data, and more than 1,000 jobs, are refused', async () => {
      expect(await call('editjobs', { jobs: { [j1.id]: { priority: 1 } }, bogus: 1 })).toEqual({
        http: 400,
        body: { status: -1, error: 'data.bogus: unknown field' },
      });
      const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`01MANY${String(i).padStart(20, '0')}`, { priority: 1 }]));
      expectRefused(await call('editjobs', { jobs: many }), ['data.jobs']);
      expectRefused(await call('editjobs', { jobs: [{ priority: 1 }] }), ['data.jobs']);
      expectRefused(await call('editjobs', {}), ['data.jobs']);
      expectRefused(await call('editjobs', { jobs: { [j1.id]: { priority: 1 } }, notify: 'yes' }), ['data.notify']);
      expectRefused(await call('editjobs', { jobs: { [j1.id]: { priority: 1 } }, sendRouteChange: 1 }), ['data.sendRouteChange']);
    });
  });

  describe('createjobs: the call as a whole', () => {
    it('more than 1,000 jobs → -1 naming data.jobs, nothing written; exactly 1,000 are created', async () => {
      const own = await createCompany(api);
      const before = await written(own.companyUid);
      const tooMany = await action(api, 'createjobs', { jobs: Array.from({ length: 1001 }, () => ({ day: D })) }, { key: own.key });
      expectRefused(tooMany as Res, ['data.jobs']);
      expect(await written(own.companyUid)).toEqual(before);
      const ok = await action<{ jobs: Job[] }>(
        api,
        'createjobs',
        { jobs: Array.from({ length: 1000 }, () => ({ day: D })) },
        { key: own.key },
      );
      expect(ok.body.status).toBe(0);
      expect(ok.body.jobs).toHaveLength(1000);
      expect((await written(own.companyUid)).jobCount).toBe(1000);
    });

    it('autoassign with isTemplate → -1 naming data.autoassign, nothing written; autoassign false is fine (assignment itself: dispatch-assign e2e)', async () => {
      const before = await written();
      const res = await call('createjobs', { jobs: [good('auto')], autoassign: true, isTemplate: true });
      expectRefused(res, ['data.autoassign']);
      expect(await written()).toEqual(before);
      expect((await call('createjobs', { jobs: [good('auto')], autoassign: false })).body.status).toBe(0);
    });

    it('two inputs with one uidSecondary → -1 naming both indexes, nothing written', async () => {
      const u = `dup-${newId()}`;
      const before = await written();
      const res = await call('createjobs', {
        jobs: [
          { ...good('a'), uidSecondary: u },
          { ...good('b'), uidSecondary: `other-${newId()}` },
          { ...good('c'), uidSecondary: u },
        ],
      });
      expectRefused(res, ['data.jobs[2].uidSecondary', 'data.jobs[0].uidSecondary']);
      expect(res.body.error).toContain('data.jobs[0]');
      expect(res.body.error).toContain('data.jobs[2]');
      expect(await written()).toEqual(before);
    });

    it('a bad merge (uidSecondary match) after a good create and a good merge rolls everything back', async () => {
      const ux = `x-${newId()}`;
      const uy = `y-${newId()}`;
      await createOne({ destinationName: 'X', uidSecondary: ux, windowStart: 1000, windowEnd: 1200 });
      await createOne({ destinationName: 'Y', uidSecondary: uy, priority: 1 });
      const before = await written();
      const res = await call('createjobs', {
        jobs: [good('fresh'), { uidSecondary: uy, priority: 9, destinationName: 'Y2' }, { uidSecondary: ux, windowEnd: 900 }],
      });
      expectRefused(res, ['data.jobs[2].windowEnd', 'data.jobs[2].windowStart']);
      expect(await written()).toEqual(before);
    });

    it('a job that is not an object, a missing or non-array jobs, and unknown data keys are refused', async () => {
      for (const value of [null, 5, 'x', [good('nested')]]) {
        const before = await written();
        expectRefused(await call('createjobs', { jobs: [good('ok'), value] }), ['data.jobs[1]']);
        expect(await written()).toEqual(before);
      }
      expectRefused(await call('createjobs', {}), ['data.jobs']);
      expectRefused(await call('createjobs', { jobs: { 0: good('o') } }), ['data.jobs']);
      expect(await call('createjobs', { jobs: [good('ok')], bogus: true })).toEqual({
        http: 400,
        body: { status: -1, error: 'data.bogus: unknown field' },
      });
      expectRefused(await call('createjobs', { jobs: [good('ok')], isTemplate: 'yes' }), ['data.isTemplate']);
      expectRefused(await call('createjobs', { jobs: [good('ok')], sendRouteChange: 1 }), ['data.sendRouteChange']);
    });
  });

  describe('keys named like Object.prototype members', () => {
    it('inside a job: refused as unknown fields, nothing written', async () => {
      for (const key of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__']) {
        const before = await written();
        const job = JSON.parse(`{"destinationName": "p", ${JSON.stringify(key)}: {"priority": 11}}`);
        const res = await call('createjobs', { jobs: [good('g'), job] });
        expectRefused(res, [`data.jobs[1].${key}`]);
        expect(await written()).toEqual(before);
      }
    });

    it('in data: refused as unknown fields, nothing written', async () => {
      for (const key of ['toString', 'constructor', 'valueOf']) {
        const before = await written();
        const res = await call('createjobs', { jobs: [good('g')], [key]: 1 });
        expectRefused(res, [`data.${key}`]);
        expect(await written()).toEqual(before);
      }
    });
  });

  describe('valid values, at their bounds, are accepted and stored', () => {
    const full = () => ({
      type: 2,
      teamId: 2,
      destinationName: 'n'.repeat(500),
      destinationLat: -90,
      destinationLng: 180,
      destinationText: 'Main St 1',
      destinationUrl: 'https://maps.example.test/?q=46.05,14.5',
      textDispatcher: 'line 1\nline 2',
      textReceiver: 'done',
      contactName: 'Ana',
      contactPhone: '+386 (41) 000-111',
      contactEmail: 'ana@example.test',
      day: 20240229,
      priority: 10,
      number: -(2 ** 31),
      onSiteSeconds: 604800,
      windowStart: 2300,
      windowEnd: 2400,
      orderId: Number.MAX_SAFE_INTEGER,
      dispatcherUid: company.ownerUid,
      placeUid: refs.place,
      worker: refs.w1.username.toUpperCase(),
      receiverUid: refs.w1.uid,
      itemsToDropoff: 1000000,
      itemsToPickup: 0,
      uidSecondary: `full-${newId()}`,
      customFields: manyCustomFields(49),
      custom_last: 'fifty',
      extra_number_1_val: 3.5,
      extra_number_4_val: -2,
      extra_text_2_val: 'text',
      tsCreated: TS,
      tsAccepted: TS + 1,
      tsRejected: 0,
      tsDoneSuccess: TS + 4,
      tsDoneFailed: 0,
      tsCheckIn: TS + 2,
      tsCheckOut: TS + 3,
      tsCheckNFC1: TS + 5,
      tsCheckNFC2: TS + 6,
    });

    function expectStored(job: Job, sent: Record<string, unknown>) {
      const { worker: _w, customFields: _c, custom_last: _l, ...plain } = sent;
      expect(job).toMatchObject(plain);
      expect(job.worker).toBe(refs.w1.username);
      expect(job.customFields).toEqual([...manyCustomFields(49), { key: 'last', val: 'fifty' }]);
      expect(job.tsAssigned).toBeGreaterThan(0);
    }

    it('createjobs with every RW field', async () => {
      const sent = full();
      const res = await call('createjobs', { jobs: [sent] });
      expect(res.body.status).toBe(0);
      const [job] = res.body.jobs as Job[];
      expectStored(job, sent);
      expect((await call('getjobs', { id: job.id })).body.jobs).toEqual([job]);
    });

    it('editjobs with every RW field', async () => {
      const target = await createOne({ destinationName: 'plain' });
      const sent = full();
      const res = await call('editjobs', { jobs: { [target.id]: sent } });
      expect(res.body.status).toBe(0);
      expectStored((res.body.jobs as Job[])[0], sent);
    });

    it('the lenient values: null coordinates and uidSecondary, "" for text, url, phone, e-mail, assignee; equal window bounds; 0 timestamps', async () => {
      const res = await call('createjobs', {
        jobs: [
          {
            destinationLat: null,
            destinationLng: null,
            uidSecondary: null,
            destinationUrl: '',
            contactPhone: '',
            contactEmail: '',
            worker: '',
            receiverUid: '',
            dispatcherUid: '',
            placeUid: '',
            teamId: 0,
            day: 0,
            windowStart: 1200,
            windowEnd: 1200,
            tsDoneSuccess: 0,
            tsDoneFailed: 0,
            custom_gone: '',
            customFields: [],
            extra_text_1_val: '',
            extra_number_2_val: 0,
          },
          { windowStart: 0, windowEnd: 600 },
          { windowStart: 600, windowEnd: 0 },
        ],
      });
      expect(res.body.status).toBe(0);
      const [a] = res.body.jobs as Job[];
      expect(a).toMatchObject({
        destinationLat: null,
        uidSecondary: '',
        worker: '',
        receiverUid: '',
        windowStart: 1200,
        windowEnd: 1200,
        customFields: [],
      });
    });
  });
});
