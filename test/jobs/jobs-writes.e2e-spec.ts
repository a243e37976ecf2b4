import { dayInZone } from '@app/core';
import { DataSource } from 'typeorm';
import * as jobView from '../../libs/jobs/src/job-view';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

type Member = { uid: string; username: string; key: string };

describe('job writes, events and the /v1/jobs connector', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let worker: Member;
  let today: number;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api, { timezone: 'Europe/Ljubljana' });
    await action(api, 'editcompany', { teams_config: [{ id: 1, name: 'One' }] }, { key: company.key });
    worker = await createMember(api, company, { role: 'worker', teams: [1] });
    today = dayInZone(Date.now(), 'Europe/Ljubljana');
  });
  afterAll(() => api.close());

  const create = async (jobs: unknown[], extra: Record<string, unknown> = {}, key = company.key) =>
    action<{ jobs: any[] }>(api, 'createjobs', { jobs, ...extra }, { key });
  const edit = async (jobs: Record<string, unknown>, extra: Record<string, unknown> = {}, key = company.key) =>
    action<{ jobs: any[] }>(api, 'editjobs', { jobs, ...extra }, { key });
  const events = async (jobId: string) =>
    (await db.query(`SELECT action, event_key, form_id, payload FROM outbox_events WHERE company_id = $1 AND form_id = $2 ORDER BY id`, [
      company.companyUid,
      jobId,
    ])) as Array<{
      action: string;
      event_key: string;
      form_id: string;
      payload: string;
    }>;
  const actions = async (jobId: string) => (await events(jobId)).map((e) => e.action);
  const row = async (id: string) => (await db.query(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  describe('events in the outbox, in the same transaction as the change', () => {
    it('create → jobcreated with data = [full job]', async () => {
      const res = await create([{ destinationName: 'Boiler', day: today, worker: worker.username }]);
      expect(res.body.status).toBe(0);
      const job = res.body.jobs[0];
      const [ev] = await events(job.id);
      expect(ev).toMatchObject({ action: 'jobcreated', event_key: 'job_created', form_id: job.id });
      const data = JSON.parse(ev.payload);
      expect(data).toEqual([job]);
      expect(data[0]).toMatchObject({ version: 1, worker: worker.username, receiverUid: worker.uid });
      expect(data[0].tsAssigned).toBeGreaterThan(0);
    });

    it('createjobs answers (and stores as event payloads) exactly what getjobs reads back', async () => {
      const dispatcher = await createMember(api, company, { role: 'operator' });
      const res = await create([
        {
          destinationName: 'Everything ü ✓',
          destinationText: 'Line 1\nLine "2"',
          destinationLat: 46.05108123456789,
          destinationLng: -14.505751,
          day: today,
          windowStart: 830,
          windowEnd: 2400,
          priority: 4,
          number: -7,
          orderId: 9007199254740991,
          teamId: 1,
          worker: worker.username.toUpperCase(),
          dispatcherUid: dispatcher.uid,
          uidSecondary: `all-${Date.now()}`,
          contactName: 'Eva',
          contactPhone: '+386 40 123 456',
          contactEmail: 'eva@example.test',
          customFields: [
            { key: 'b', val: '2' },
            { key: 'a', val: '1' },
          ],
          custom_z: 'last',
          extra_number_2_val: 2.5,
          extra_text_1_val: 'text',
          tsAccepted: 5,
          tsCheckNFC1: 6,
        },
        { destinationName: 'Plain' },
      ]);
      expect(res.body.status).toBe(0);
      const read = await action<{ jobs: any[] }>(
        api,
        'getjobs',
        { ids: res.body.jobs.map((j: { id: string }) => j.id) },
        { key: company.key },
      );
      const byId = new Map(read.body.jobs.map((j) => [j.id, j]));
      for (const job of res.body.jobs) {
        expect(job).toEqual(byId.get(job.id));
        expect(JSON.parse((await events(job.id))[0].payload)).toEqual([job]);
      }
      expect(res.body.jobs[0]).toMatchObject({ workerName: expect.any(String), dispatcherName: expect.any(String), tsCheckNFC1: 6 });
    });

    it('one edit that checks in, checks out and completes → jobcheckin, jobcheckout, jobcompleted (no jobupdated), same snapshot', async () => {
      const [job] = (await create([{ destinationName: 'Multi' }])).body.jobs;
      const t = Date.now();
      const res = await edit({ [job.id]: { tsCheckIn: t - 3000, tsCheckOut: t - 1000, tsDoneSuccess: t, textReceiver: 'done' } });
      expect(res.body.status).toBe(0);
      const evs = await events(job.id);
      expect(evs.map((e) => e.action)).toEqual(['jobcreated', 'jobcheckin', 'jobcheckout', 'jobcompleted']);
      expect(evs.slice(1).map((e) => e.event_key)).toEqual(['job_checked', 'job_checked', 'job_completed']);
      const snapshots = evs.slice(1).map((e) => JSON.parse(e.payload)[0]);
      expect(snapshots[0]).toEqual(snapshots[1]);
      expect(snapshots[0]).toEqual(snapshots[2]);
      expect(snapshots[0]).toMatchObject({ version: 2, progress: 'success', textReceiver: 'done' });
      expect(snapshots[0]).toEqual(res.body.jobs[0]);
    });

    it('other edits → jobupdated with the version incremented; a no-op edit → no event and tsSaved stays', async () => {
      const [job] = (await create([{ destinationName: 'Plain', priority: 1 }])).body.jobs;
      await edit({ [job.id]: { priority: 5 } });
      expect(await actions(job.id)).toEqual(['jobcreated', 'jobupdated']);
      const before = await row(job.id);
      const noop = await edit({ [job.id]: { priority: 5, destinationName: 'Plain' } });
      expect(noop.body.status).toBe(0);
      expect(await actions(job.id)).toEqual(['jobcreated', 'jobupdated']);
      const after = await row(job.id);
      expect(after.ts_saved).toBe(before.ts_saved);
      expect(after.version).toBe(2);
    });

    it('setting one done timestamp clears the other; failed after success fires jobcompleted again', async () => {
      const [job] = (await create([{ destinationName: 'Flip' }])).body.jobs;
      const s = await edit({ [job.id]: { tsDoneSuccess: 1000 } });
      expect(s.body.jobs[0]).toMatchObject({ tsDoneSuccess: 1000, tsDoneFailed: 0, progress: 'success' });
      const f = await edit({ [job.id]: { tsDoneFailed: 2000 } });
      expect(f.body.jobs[0]).toMatchObject({ tsDoneSuccess: 0, tsDoneFailed: 2000, progress: 'failed' });
      expect(await actions(job.id)).toEqual(['jobcreated', 'jobcompleted', 'jobcompleted']);
    });

    it('archive → jobarchived; archiving again → no event; restore → jobupdated; delete → jobdeleted with the snapshot before, version + 1', async () => {
      const [job] = (await create([{ destinationName: 'Lifecycle' }])).body.jobs;
      expect((await action(api, 'archivejobs', { jobs: { [job.id]: {} } }, { key: company.key })).body.status).toBe(0);
      expect((await action(api, 'archivejobs', { jobs: { [job.id]: {} } }, { key: company.key })).body.status).toBe(0);
      expect((await action(api, 'restorejobs', { jobs: { [job.id]: {} } }, { key: company.key })).body.status).toBe(0);
      expect((await action(api, 'restorejobs', { jobs: { [job.id]: {} } }, { key: company.key })).body.status).toBe(0);
      expect((await action(api, 'deletejobs', { jobs: { [job.id]: {} } }, { key: company.key })).body.status).toBe(0);
      const evs = await events(job.id);
      expect(evs.map((e) => e.action)).toEqual(['jobcreated', 'jobarchived', 'jobupdated', 'jobdeleted']);
      expect(JSON.parse(evs[1].payload)[0]).toMatchObject({ status: 'archived', version: 2 });
      expect(JSON.parse(evs[2].payload)[0].status).toBeUndefined();
      expect(JSON.parse(evs[3].payload)[0]).toMatchObject({ id: job.id, destinationName: 'Lifecycle', version: 4 });
      expect(await row(job.id)).toBeUndefined();
    });

    it('a failed call writes no event and nothing else', async () => {
      const [job] = (await create([{ destinationName: 'Untouched' }])).body.jobs;
      const res = await edit({ [job.id]: { priority: 3 }, NOSUCHJOB: { priority: 4 } });
      expect(res.http).toBe(404);
      expect(res.body.status).toBe(1001);
      expect(res.body.error).toContain('NOSUCHJOB');
      expect(await actions(job.id)).toEqual(['jobcreated']);
      expect((await row(job.id)).priority).toBe(0);
      const bad = await action(api, 'archivejobs', { jobs: { [job.id]: {}, MISSING: {} } }, { key: company.key });
      expect(bad.body.status).toBe(1001);
      expect((await row(job.id)).archived).toBe(false);
    });

    it('templates fire no events and are addressed as tpl-<id>', async () => {
      const res = await create([{ destinationName: 'Template A' }], { isTemplate: true });
      const tpl = res.body.jobs[0];
      expect(tpl.id).toMatch(/^tpl-/);
      expect(tpl.isTemplate).toBe(true);
      const edited = await edit({ [tpl.id]: { priority: 9 } });
      expect(edited.body.jobs[0]).toMatchObject({ id: tpl.id, priority: 9 });
      const raw = tpl.id.slice(4);
      expect(await actions(raw)).toEqual([]);
      expect((await edit({ [raw]: { priority: 1 } })).body.status).toBe(1001);
      const listed = await action<{ jobs: any[] }>(api, 'getjobs', { templates: true }, { key: company.key });
      expect(listed.body.jobs.map((j) => j.id)).toContain(tpl.id);
      expect((await connector(api, 'GET', `/v1/jobs/${tpl.id}`, company.key)).http).toBe(404);
      expect((await connector(api, 'GET', `/v1/jobs/${raw}`, company.key)).http).toBe(404);
    });
  });

  describe('assignment', () => {
    it('assign, reassign (tsAssigned now, accepted/rejected cleared), unassign (tsAssigned cleared)', async () => {
      const other = await createMember(api, company, { role: 'worker' });
      const [job] = (await create([{ destinationName: 'Assign', receiverUid: worker.uid, tsAccepted: 5 }])).body.jobs;
      expect(job).toMatchObject({ receiverUid: worker.uid, worker: worker.username, tsAccepted: 5 });
      const first = job.tsAssigned;
      expect(first).toBeGreaterThan(0);
      const re = (await edit({ [job.id]: { worker: other.username.toUpperCase() } })).body.jobs[0];
      expect(re).toMatchObject({ receiverUid: other.uid, tsAccepted: 0, tsRejected: 0 });
      expect(re.tsAssigned).toBeGreaterThanOrEqual(first);
      const un = (await edit({ [job.id]: { receiverUid: '' } })).body.jobs[0];
      expect(un).toMatchObject({ receiverUid: '', worker: '', tsAssigned: 0 });
    });

    it('the assignee must be an active member; worker and receiverUid must agree', async () => {
      const gone = await createMember(api, company, { role: 'worker' });
      await action(api, 'deleteaccount', { uid: gone.uid }, { key: company.key });
      expect((await create([{ worker: gone.username }])).body.error).toMatch(/^data\.jobs\[0\]\.worker/);
      expect((await create([{ worker: worker.username, receiverUid: company.ownerUid }])).body.error).toMatch(
        /^data\.jobs\[0\]\.receiverUid/,
      );
    });

    it('sendRouteChange notifies the assignee of a job for today only', async () => {
      const res = await create(
        [
          { destinationName: 'Today', day: today, worker: worker.username },
          { destinationName: 'Later', day: 20991231, worker: worker.username },
        ],
        { sendRouteChange: true },
      );
      const [todayJob, laterJob] = res.body.jobs;
      const notes = await db.query(`SELECT kind, job_id, member_id FROM notifications WHERE company_id = $1 AND job_id = ANY($2)`, [
        company.companyUid,
        [todayJob.id, laterJob.id],
      ]);
      expect(notes).toEqual([{ kind: 'route_changed', job_id: todayJob.id, member_id: worker.uid }]);
    });

    it('notify (default true) tells the dispatcher when progress changes', async () => {
      const dispatcher = await createMember(api, company, { role: 'operator' });
      const [job] = (await create([{ destinationName: 'Notify', dispatcherUid: dispatcher.uid }])).body.jobs;
      await edit({ [job.id]: { tsRejected: 10 } });
      await edit({ [job.id]: { destinationText: 'no progress change' } });
      await edit({ [job.id]: { tsCheckIn: 11 } }, { notify: false });
      const notes = await db.query(`SELECT kind, member_id FROM notifications WHERE job_id = $1`, [job.id]);
      expect(notes).toEqual([{ kind: 'job_progress', member_id: dispatcher.uid }]);
    });
  });

  describe('uidSecondary / externalId dedupe', () => {
    it('createjobs with an existing uidSecondary merges only the sent fields, also into an archived job (which stays archived)', async () => {
      const [job] = (await create([{ destinationName: 'Orig', uidSecondary: 'ext-merge', priority: 3, contactName: 'Keep' }])).body.jobs;
      await action(api, 'archivejobs', { jobs: { [job.id]: {} } }, { key: company.key });
      const res = await create([{ uidSecondary: 'ext-merge', priority: 7 }]);
      expect(res.body.jobs[0]).toMatchObject({ id: job.id, priority: 7, contactName: 'Keep', destinationName: 'Orig', status: 'archived' });
      expect(await actions(job.id)).toEqual(['jobcreated', 'jobarchived', 'jobupdated']);
    });

    it('two inputs with one uidSecondary → -1 naming both indexes', async () => {
      const res = await create([{ uidSecondary: 'dup-x' }, { uidSecondary: 'other' }, { uidSecondary: 'dup-x' }]);
      expect(res.body).toEqual({ status: -1, error: 'data.jobs[2].uidSecondary: same uidSecondary as data.jobs[0]' });
    });

    it('the connector externalId and the action uidSecondary are one key: POST 201 then 200 on dedupe', async () => {
      const first = await connector(api, 'POST', '/v1/jobs', company.key, {
        title: 'Zap',
        externalId: 'zap-1',
        date: '2026-12-01',
        contact: { name: 'Ana' },
      });
      expect(first.http).toBe(201);
      const id = first.body.data.items[0].id;
      const again = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'Zap again', externalId: 'zap-1' });
      expect(again.http).toBe(200);
      expect(again.body.data.items[0]).toMatchObject({
        id,
        title: 'Zap again',
        date: '2026-12-01',
        contact: { name: 'Ana', phone: '', email: '' },
      });
      const viaAction = await create([{ uidSecondary: 'zap-1', textDispatcher: 'from the action API' }]);
      expect(viaAction.body.jobs[0]).toMatchObject({ id, textDispatcher: 'from the action API', createdVia: 'connector' });
      const lookup = await connector(api, 'GET', '/v1/jobs?externalId=zap-1&limit=1', company.key);
      expect(lookup.body.data.items.map((j: { id: string }) => j.id)).toEqual([id]);
    });

    it('concurrent creates with one key make one job', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2
            ? connector(api, 'POST', '/v1/jobs', company.key, { title: `Race ${i}`, externalId: 'race-key' })
            : create([{ destinationName: `Race ${i}`, uidSecondary: 'race-key' }]),
        ),
      );
      const ids = new Set(results.map((r: any) => (r.body.data ? r.body.data.items[0].id : r.body.jobs[0].id)));
      expect(ids.size).toBe(1);
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM jobs WHERE company_id = $1 AND uid_secondary = 'race-key'`, [
        company.companyUid,
      ]);
      expect(count).toBe(1);
      const id = [...ids][0] as string;
      expect((await actions(id)).filter((a) => a === 'jobcreated')).toHaveLength(1);
      expect(results.filter((r) => r.http === 201).length).toBeLessThanOrEqual(1);
    });

    it('createjobs builds its views while its insert runs; a job whose uidSecondary a racing transaction took meanwhile is merged into that job instead', async () => {
      const [model] = (await create([{ destinationName: 'Model' }])).body.jobs;
      const heldId = `held${Date.now()}`;
      // another transaction inserts a job holding uidSecondary 'held-key' and stays open: createjobs'
      // insert waits on it (the unique index), then skips that job (ON CONFLICT DO NOTHING)
      const holder = db.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      const rendered = jest.spyOn(jobView, 'toJobView');
      try {
        await holder.query(
          `INSERT INTO jobs SELECT (jsonb_populate_record(j, jsonb_build_object('id', $2::text, 'uid_secondary', 'held-key', 'destination_name', 'Holder'))).*
             FROM jobs j WHERE j.id = $1`,
          [model.id, heldId],
        );
        const pending = create([{ destinationName: 'Fresh' }, { destinationName: 'Wanted', uidSecondary: 'held-key', priority: 5 }]);
        let waiting = 0;
        for (let i = 0; i < 200 && !waiting; i++) {
          await new Promise((r) => setTimeout(r, 25));
          [{ waiting }] = await db.query(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO jobs%'`,
          );
        }
        expect(waiting).toBe(1);
        // both new jobs' views are built already, while the insert still waits
        const built = rendered.mock.calls.map(([r]) => r.destinationName);
        expect(built).toEqual(expect.arrayContaining(['Fresh', 'Wanted']));
        await holder.commitTransaction();
        const res = await pending;
        expect(res.body.status).toBe(0);
        const [fresh, merged] = res.body.jobs;
        expect(fresh).toMatchObject({ destinationName: 'Fresh', version: 1 });
        // merged: the holder's job with only the sent fields written (the view built for the skipped insert is dropped)
        expect(merged).toMatchObject({ id: heldId, destinationName: 'Wanted', priority: 5, uidSecondary: 'held-key', version: 2 });
        const back = await action<{ jobs: any[] }>(api, 'getjobs', { ids: [fresh.id, heldId] }, { key: company.key });
        expect(new Map(back.body.jobs.map((j: any) => [j.id, j]))).toEqual(new Map([fresh, merged].map((j) => [j.id, j])));
        expect(await actions(fresh.id)).toEqual(['jobcreated']);
        expect(await actions(heldId)).not.toContain('jobcreated');
        expect(await actions(heldId)).toContain('jobupdated');
        const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM jobs WHERE company_id = $1 AND uid_secondary = 'held-key'`, [
          company.companyUid,
        ]);
        expect(count).toBe(1);
      } finally {
        rendered.mockRestore();
        if (holder.isTransactionActive) await holder.rollbackTransaction();
        await holder.release();
      }
    });
  });

  describe('versions', () => {
    it('ver 1 editjobs answers only status (the change is made); ver 2 answers the jobs', async () => {
      const [job] = (await create([{ destinationName: 'Versions' }])).body.jobs;
      const v1 = await action(api, 'editjobs', { jobs: { [job.id]: { priority: 6 } } }, { key: company.key }, { ver: 1 });
      expect(v1.body).toEqual({ status: 0 });
      expect((await row(job.id)).priority).toBe(6);
      const v2 = await action<{ jobs: any[] }>(api, 'editjobs', { jobs: { [job.id]: { priority: 7 } } }, { key: company.key }, { ver: 2 });
      expect(v2.body.jobs[0]).toMatchObject({ id: job.id, priority: 7 });
    });
  });

  describe('teams', () => {
    it('teamId must be a team of teams_config; a team used by a live job cannot be removed', async () => {
      const c = await createCompany(api);
      await action(
        api,
        'editcompany',
        {
          teams_config: [
            { id: 4, name: 'Four' },
            { id: 5, name: 'Five' },
          ],
        },
        { key: c.key },
      );
      expect((await action(api, 'createjobs', { jobs: [{ teamId: 6 }] }, { key: c.key })).body.error).toMatch(/^data\.jobs\[0\]\.teamId/);
      const [job] = (await action<{ jobs: any[] }>(api, 'createjobs', { jobs: [{ teamId: 5 }] }, { key: c.key })).body.jobs;
      const refused = await action(api, 'editcompany', { teams_config: [{ id: 4, name: 'Four' }] }, { key: c.key });
      expect(refused.body).toEqual({ status: -1, error: 'data.teams_config: team 5 is still assigned to jobs; remove it from them first' });
      await action(api, 'archivejobs', { jobs: { [job.id]: {} } }, { key: c.key });
      expect((await action(api, 'editcompany', { teams_config: [{ id: 4, name: 'Four' }] }, { key: c.key })).body.status).toBe(0);
    });
  });

  describe('concurrency', () => {
    it('two concurrent editjobs on different fields of one job: both changes survive', async () => {
      for (let round = 0; round < 5; round++) {
        const [job] = (await create([{ destinationName: `Concurrent ${round}` }])).body.jobs;
        const [a, b] = await Promise.all([edit({ [job.id]: { priority: 9 } }), edit({ [job.id]: { contactName: `Both ${round}` } })]);
        expect(a.body.status).toBe(0);
        expect(b.body.status).toBe(0);
        const r = await row(job.id);
        expect(r.priority).toBe(9);
        expect(r.contact_name).toBe(`Both ${round}`);
        expect(r.version).toBe(3);
      }
    });
  });

  describe('/v1/jobs', () => {
    it('contact phone and e-mail follow the field rules on both surfaces: stored as sent; a 65-character phone is -1/400', async () => {
      const contact = { name: 'Ema', phone: '+1 (555) 123-4567 x89', email: 'Ema <ema@x.test>' };
      const created = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'CRM row', contact });
      expect(created.http).toBe(201);
      expect(created.body.data.items[0].contact).toEqual(contact);
      const stored = async (id: string) =>
        (await db.query(`SELECT contact_phone AS phone, contact_email AS email FROM jobs WHERE id = $1`, [id]))[0];
      expect(await stored(created.body.data.items[0].id)).toEqual({ phone: contact.phone, email: contact.email });
      const viaAction = await create([{ contactPhone: '0800 FLOWERS', contactEmail: contact.email }]);
      expect(viaAction.body.status).toBe(0);
      expect(await stored(viaAction.body.jobs[0].id)).toEqual({ phone: '0800 FLOWERS', email: contact.email });

      const long = 'x'.repeat(65);
      const rule = 'must be a phone: text of at most 64 characters without control characters, or ""';
      const v1 = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'Too long', contact: { phone: long } });
      expect(v1.http).toBe(400);
      expect(v1.body.error.message).toBe(`body.contact.phone: ${rule}`);
      const act = await create([{ contactPhone: long }]);
      expect(act).toEqual({ http: 400, body: { status: -1, error: `data.jobs[0].contactPhone: ${rule}` } });
    });

    it('GET one, PATCH (both forms), archive, DELETE answer the documented shapes', async () => {
      const created = await connector(api, 'POST', '/v1/jobs', company.key, {
        title: 'Connector job',
        address: 'Main St 1',
        notes: 'Ring twice',
        date: '2026-12-24',
        assigneeUsername: worker.username,
        priority: 4,
        contact: { name: 'Eva', phone: '+386 40 123 456', email: 'eva@example.test' },
        timeWindow: { start: '08:30', end: '24:00' },
      });
      expect(created.http).toBe(201);
      const job = created.body.data.items[0];
      expect(job).toEqual({
        id: expect.any(String),
        externalId: null,
        title: 'Connector job',
        address: 'Main St 1',
        notes: 'Ring twice',
        date: '2026-12-24',
        timeWindow: { start: '08:30', end: '24:00' },
        placeId: null,
        priority: 4,
        progress: 'scheduled',
        archived: false,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
        assignee: { id: worker.uid, username: worker.username, email: expect.any(String), name: expect.any(String) },
        contact: { name: 'Eva', phone: '+386 40 123 456', email: 'eva@example.test' },
      });
      const action = await db.query(`SELECT day, window_start, window_end, destination_text, text_dispatcher FROM jobs WHERE id = $1`, [
        job.id,
      ]);
      expect(action[0]).toEqual({
        day: 20261224,
        window_start: 830,
        window_end: 2400,
        destination_text: 'Main St 1',
        text_dispatcher: 'Ring twice',
      });

      const one = await connector(api, 'GET', `/v1/jobs/${job.id}`, company.key);
      expect(one.body.data.items[0]).toEqual(job);
      const p1 = await connector(api, 'PATCH', '/v1/jobs', company.key, { id: job.id, priority: 8, timeWindow: null });
      expect(p1.http).toBe(200);
      expect(p1.body.data.items[0]).toMatchObject({ priority: 8, timeWindow: null });
      const p2 = await connector(api, 'PATCH', `/v1/jobs/${job.id}`, company.key, { date: null, assigneeUsername: '' });
      expect(p2.body.data.items[0]).toMatchObject({ date: null, assignee: null, priority: 8 });
      expect((await connector(api, 'PATCH', `/v1/jobs/${job.id}`, company.key, { id: 'OTHER', priority: 1 })).http).toBe(400);
      const archived = await connector(api, 'POST', `/v1/jobs/${job.id}/archive`, company.key);
      expect(archived.http).toBe(200);
      expect(archived.body.data.items[0].archived).toBe(true);
      expect((await connector(api, 'GET', `/v1/jobs/${job.id}`, company.key)).body.data.items[0].archived).toBe(true);
      const del = await connector(api, 'DELETE', `/v1/jobs/${job.id}`, company.key);
      expect(del).toEqual({ http: 200, body: { data: { id: job.id, deleted: true } } });
      expect((await connector(api, 'GET', `/v1/jobs/${job.id}`, company.key)).http).toBe(404);
      expect(await actions(job.id)).toEqual(['jobcreated', 'jobupdated', 'jobupdated', 'jobarchived', 'jobdeleted']);
    });

    it('bad bodies and queries → 400 naming the field; read-only fields named', async () => {
      const cases: Array<[unknown, string]> = [
        [{}, 'body.title'],
        [{ title: 'x', priority: 11 }, 'body.priority'],
        [{ title: 'x', date: '2026-02-30' }, 'body.date'],
        [{ title: 'x', timeWindow: { start: '25:00' } }, 'body.timeWindow.start'],
        [{ title: 'x', timeWindow: { start: '10:00', end: '09:00' } }, 'body.timeWindow.end'],
        [{ title: 'x', contact: { email: 'nope' } }, 'body.contact.email'],
        [{ title: 'x', assigneeUsername: 'nobody@nowhere.test' }, 'body.assigneeUsername'],
        [{ title: 'x', placeId: 'NOPLACE' }, 'body.placeId'],
        [{ title: 'x', progress: 'success' }, 'body.progress'],
        [{ title: 'x', createdAt: 1 }, 'body.createdAt'],
        [{ title: 'x', surprise: 1 }, 'body.surprise'],
      ];
      for (const [body, field] of cases) {
        const res = await connector(api, 'POST', '/v1/jobs', company.key, body);
        expect({ field, http: res.http }).toEqual({ field, http: 400 });
        expect(res.body.error.message.startsWith(`${field}:`)).toBe(true);
      }
      for (const q of ['includeArchived=yes', 'limit=-1', 'createdSince=abc', 'progress=done', 'skip=1.5']) {
        const res = await connector(api, 'GET', `/v1/jobs?${q}`, company.key);
        expect({ q, http: res.http }).toEqual({ q, http: 400 });
        expect(res.body.error.message).toMatch(/^query\./);
      }
      const secs = await connector(api, 'GET', '/v1/jobs?updatedSince=1795000000', company.key);
      expect({ http: secs.http, body: secs.body }).toEqual({
        http: 400,
        body: { error: { message: 'query.updatedSince: must be ms since the epoch; 1795000000 looks like seconds' } },
      });
    });

    it('PATCH with an externalId another job holds → 400 naming body.externalId (the connector has no 409), nothing written', async () => {
      const holder = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'Holder', externalId: 'held-ext' });
      const other = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'Other' });
      const id = other.body.data.items[0].id;
      for (const [method, path, body] of [
        ['PATCH', `/v1/jobs/${id}`, { externalId: 'held-ext', priority: 5 }],
        ['PATCH', '/v1/jobs', { id, externalId: 'held-ext', priority: 5 }],
      ] as const) {
        const res = await connector(api, method, path, company.key, body);
        expect(res.http).toBe(400);
        expect(res.body.error.message).toMatch(/^body\.externalId: \S/);
      }
      expect((await row(id)).priority).toBe(0);
      // the action API keeps -4/409 for uidSecondary
      const viaAction = await edit({ [id]: { uidSecondary: 'held-ext' } });
      expect({ http: viaAction.http, status: viaAction.body.status }).toEqual({ http: 409, status: -4 });
      void holder;
    });

    it('includeArchived=false means false; limit is clamped to 100; newest first', async () => {
      const c = await createCompany(api);
      const made = (
        await action<{ jobs: any[] }>(
          api,
          'createjobs',
          { jobs: Array.from({ length: 105 }, (_, i) => ({ destinationName: `J${i}` })) },
          { key: c.key },
        )
      ).body.jobs;
      await action(api, 'archivejobs', { jobs: { [made[0].id]: {} } }, { key: c.key });
      const all = await connector(api, 'GET', '/v1/jobs?limit=500&includeArchived=true', c.key);
      expect(all.body.data.items).toHaveLength(100);
      for (const flag of ['false', '0']) {
        const res = await connector(api, 'GET', `/v1/jobs?limit=100&skip=0&includeArchived=${flag}`, c.key);
        const rest = await connector(api, 'GET', `/v1/jobs?limit=100&skip=100&includeArchived=${flag}`, c.key);
        const ids = [...res.body.data.items, ...rest.body.data.items].map((j: { id: string }) => j.id);
        expect(ids).toHaveLength(104);
        expect(ids).not.toContain(made[0].id);
      }
      const withArchived = await connector(api, 'GET', '/v1/jobs?limit=100&skip=100&includeArchived=1', c.key);
      expect(withArchived.body.data.items).toHaveLength(5);
      const created = all.body.data.items.map((j: { createdAt: number; id: string }) => [j.createdAt, j.id]);
      const sorted = [...created].sort((a, b) => (b[0] as number) - (a[0] as number) || String(b[1]).localeCompare(String(a[1])));
      expect(created).toEqual(sorted);
    });

    it('polling by progress: updatedSince + progress=success finds completed jobs', async () => {
      const c = await createCompany(api);
      const [a, b] = (
        await action<{ jobs: any[] }>(api, 'createjobs', { jobs: [{ destinationName: 'A' }, { destinationName: 'B' }] }, { key: c.key })
      ).body.jobs;
      const since = (await connector(api, 'GET', '/v1/jobs', c.key)).body.data.items[0].updatedAt;
      await action(api, 'editjobs', { jobs: { [b.id]: { tsDoneSuccess: Date.now() } } }, { key: c.key });
      const res = await connector(api, 'GET', `/v1/jobs?updatedSince=${since}&progress=success`, c.key);
      expect(res.body.data.items.map((j: { id: string }) => j.id)).toEqual([b.id]);
      expect(res.body.data.items[0].progress).toBe('success');
      void a;
    });

    it('updatedSince polling never misses a change whose transaction commits late', async () => {
      const c = await createCompany(api);
      const [job] = (await action<{ jobs: any[] }>(api, 'createjobs', { jobs: [{ destinationName: 'Late' }] }, { key: c.key })).body.jobs;
      // a transaction stamps the job now, but commits only after a poll has run
      const runner = db.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      await runner.query(
        `UPDATE jobs SET priority = 9, ts_saved = (floor(extract(epoch from now()) * 1000))::bigint, version = version + 1 WHERE id = $1`,
        [job.id],
      );
      const [{ stamped }] = await runner.query(`SELECT ts_saved::float8 AS stamped FROM jobs WHERE id = $1`, [job.id]);
      await new Promise((r) => setTimeout(r, 50));
      // a change committed meanwhile, after the open transaction started
      const [other] = (await action<{ jobs: any[] }>(api, 'createjobs', { jobs: [{ destinationName: 'Meanwhile' }] }, { key: c.key })).body
        .jobs;
      const poll1 = await connector(api, 'GET', `/v1/jobs?updatedSince=0`, c.key);
      const seen1 = poll1.body.data.items as Array<{ id: string; updatedAt: number }>;
      // not held back by the open transaction (commit-ordered stamps, docs/connector.md "Polling triggers")
      expect(seen1.map((j) => j.id)).toContain(other.id);
      // the poller would advance its cursor to the newest updatedAt it saw: past the open transaction's clock
      const cursor = Math.max(0, ...seen1.map((j) => j.updatedAt));
      expect(cursor).toBeGreaterThan(stamped);
      await runner.commitTransaction();
      await runner.release();
      const poll2 = await connector(api, 'GET', `/v1/jobs?updatedSince=${cursor}`, c.key);
      const ids = (poll2.body.data.items as Array<{ id: string; priority: number }>).map((j) => j.id);
      expect(ids).toContain(job.id);
      expect(ids).toContain(other.id);
      // lookups by id are never held back
      expect((await connector(api, 'GET', `/v1/jobs/${other.id}`, c.key)).http).toBe(200);
    });
  });

  describe('permissions', () => {
    it('workers: no create/delete/archive/restore (-5, connector 403); edit own jobs of today with limited fields', async () => {
      const w = await createMember(api, company, { role: 'worker' });
      const [mine, notMine, tomorrow] = (
        await create([
          { destinationName: 'Mine', day: today, worker: w.username },
          { destinationName: 'Not mine', day: today, worker: worker.username },
          { destinationName: 'Tomorrow', day: 20991231, worker: w.username },
        ])
      ).body.jobs;
      for (const name of ['createjobs', 'deletejobs', 'archivejobs', 'restorejobs']) {
        const data = name === 'createjobs' ? { jobs: [{ destinationName: 'x' }] } : { jobs: { [mine.id]: {} } };
        const res = await action(api, name, data, { key: w.key });
        expect({ name, http: res.http, status: res.body.status }).toEqual({ name, http: 403, status: -5 });
      }
      expect((await connector(api, 'POST', '/v1/jobs', w.key, { title: 'x' })).http).toBe(403);
      expect((await connector(api, 'DELETE', `/v1/jobs/${mine.id}`, w.key)).http).toBe(403);
      expect((await connector(api, 'POST', `/v1/jobs/${mine.id}/archive`, w.key)).http).toBe(403);

      const ok = await edit(
        { [mine.id]: { tsAccepted: 1, textReceiver: 'on my way', extra_number_1_val: 2, custom_note: 'n' } },
        {},
        w.key,
      );
      expect(ok.body.status).toBe(0);
      for (const fields of [
        { priority: 1 },
        { destinationName: 'x' },
        { worker: worker.username },
        { receiverUid: '' },
        { day: 20991230 },
      ]) {
        expect((await edit({ [mine.id]: fields }, {}, w.key)).http).toBe(403);
      }
      expect((await edit({ [notMine.id]: { tsAccepted: 1 } }, {}, w.key)).http).toBe(403);
      expect((await edit({ [tomorrow.id]: { tsAccepted: 1 } }, {}, w.key)).http).toBe(403);

      // workers_edit_job widens: any day, and `day` itself
      await action(api, 'editcompany', { workers_edit_job: true }, { key: company.key });
      try {
        expect((await edit({ [tomorrow.id]: { tsAccepted: 1 } }, {}, w.key)).body.status).toBe(0);
        expect((await edit({ [tomorrow.id]: { day: 20991230 } }, {}, w.key)).body.status).toBe(0);
        expect((await edit({ [tomorrow.id]: { priority: 2 } }, {}, w.key)).http).toBe(403);
        expect((await edit({ [notMine.id]: { tsAccepted: 1 } }, {}, w.key)).http).toBe(403);
      } finally {
        await action(api, 'editcompany', { workers_edit_job: false }, { key: company.key });
      }
      // getjobs and /v1 list only own jobs
      const got = await action<{ jobs: any[] }>(api, 'getjobs', { day: -1, worker: '*' }, { key: w.key });
      expect(got.body.jobs.map((j) => j.id).sort()).toEqual([mine.id, tomorrow.id].sort());
      const listed = await connector(api, 'GET', '/v1/jobs', w.key);
      expect(listed.body.data.items.map((j: { id: string }) => j.id).sort()).toEqual([mine.id, tomorrow.id].sort());
    });

    it('dispatchers may do everything with jobs', async () => {
      const op = await createMember(api, company, { role: 'operator' });
      const [job] = (await create([{ destinationName: 'Op' }], {}, op.key)).body.jobs;
      expect((await edit({ [job.id]: { priority: 2, worker: worker.username } }, {}, op.key)).body.status).toBe(0);
      for (const name of ['archivejobs', 'restorejobs', 'deletejobs'])
        expect((await action(api, name, { jobs: { [job.id]: {} } }, { key: op.key })).body.status).toBe(0);
    });
  });

  describe('tenant isolation', () => {
    it('another company’s jobs behave like unknown ids on every job action and /v1/jobs route', async () => {
      const other = await createCompany(api);
      const [job] = (await create([{ destinationName: 'Secret', uidSecondary: 'secret-ext', day: today }])).body.jobs;
      // a *Since poll stamps the company's committed jobs (docs/connector.md): the row then stays as it is unless written
      await connector(api, 'GET', '/v1/jobs?createdSince=0', company.key);
      const before = await row(job.id);
      const unknown = 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ';
      for (const name of ['deletejobs', 'archivejobs', 'restorejobs']) {
        const a = await action(api, name, { jobs: { [job.id]: {} } }, { key: other.key });
        const b = await action(api, name, { jobs: { [unknown]: {} } }, { key: other.key });
        expect(a.http).toBe(404);
        expect(a.body.error!.replaceAll(job.id, 'X')).toBe(b.body.error!.replaceAll(unknown, 'X'));
      }
      const e = await action(api, 'editjobs', { jobs: { [job.id]: { priority: 1 } } }, { key: other.key });
      expect(e.http).toBe(404);
      const got = await action<{ jobs: any[] }>(api, 'getjobs', { id: job.id }, { key: other.key });
      expect(got.body.jobs).toEqual([]);
      expect((await action<{ jobs: any[] }>(api, 'getjobs', { day: -1 }, { key: other.key })).body.jobs).toEqual([]);
      // the other company's uidSecondary space is its own: same key creates a new job there
      const mine = await action<{ jobs: any[] }>(
        api,
        'createjobs',
        { jobs: [{ uidSecondary: 'secret-ext', destinationName: 'Theirs' }] },
        { key: other.key },
      );
      expect(mine.body.jobs[0].id).not.toBe(job.id);
      for (const [method, path, body] of [
        ['GET', `/v1/jobs/${job.id}`, undefined],
        ['PATCH', `/v1/jobs/${job.id}`, { priority: 1 }],
        ['PATCH', '/v1/jobs', { id: job.id, priority: 1 }],
        ['POST', `/v1/jobs/${job.id}/archive`, undefined],
        ['DELETE', `/v1/jobs/${job.id}`, undefined],
      ] as const) {
        const res = await connector(api, method, path, other.key, body);
        expect({ method, path, http: res.http }).toEqual({ method, path, http: 404 });
      }
      const list = await connector(api, 'GET', '/v1/jobs?externalId=secret-ext', other.key);
      expect(list.body.data.items.map((j: { id: string }) => j.id)).toEqual([mine.body.jobs[0].id]);
      expect(await row(job.id)).toEqual(before);
      // a member of another company can't be assigned
      const stranger = await createMember(api, other, { role: 'worker' });
      expect((await create([{ receiverUid: stranger.uid }])).body.error).toMatch(/^data\.jobs\[0\]\.receiverUid/);
    });
  });
});
