import { createRequire } from 'node:module';
import { join } from 'node:path';
import { action, connector, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { ROOT } from '../support/proc-child';
import { Received, WebhookReceiver } from '../support/webhook-receiver';
import { useWorkerStack } from '../support/worker-stack';

/**
 * The Zapier app (integrations/zapier) run by Zapier's own runtime, `zapier-platform-core`'s
 * `createAppTester`, against the api and the BUILT worker over real HTTP on loopback: no Zapier
 * account, no other network. The app and the platform are loaded from integrations/zapier's own
 * node_modules (scripts/install.sh installs them) with Node's require, as Zapier loads them.
 * Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-zapier-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

const fromApp = createRequire(join(ROOT, 'integrations/zapier/index.js'));
const zapier = fromApp('zapier-platform-core');
const App = fromApp('./index.js');
const { samples } = fromApp('./lib/samples.js');
const appTester: (method: unknown, bundle?: Record<string, unknown>) => Promise<any> = zapier.createAppTester(App);

const sortedKeys = (o: object) => Object.keys(o).sort();
const bodyOf = (r: Received) => JSON.parse(r.body) as { id: string; action: string; ts: number; data: any };

describe('Zapier app (integrations/zapier)', () => {
  const stack = useWorkerStack(PREFIX, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RECONCILE_MS: '500', QUEUE_LOCK_MS: '5000' });
  let api: TestApi;
  let receiver: WebhookReceiver;
  let c: TestCompany;
  let authData: { apiKey: string; baseUrl: string };

  beforeAll(async () => {
    ({ api, receiver } = stack);
    c = await createCompany(api, { name: 'Zap Co' });
    authData = { apiKey: c.key, baseUrl: api.url };
  });

  const run = (method: unknown, bundle: Record<string, unknown> = {}) => appTester(method, { authData, inputData: {}, ...bundle });
  const triggers = App.triggers;
  const creates = App.creates;
  const searches = App.searches;

  describe('definition', () => {
    it('validates against zapier-platform-schema, as `zapier validate` checks it (and the check does refuse a broken one)', async () => {
      const handler = zapier.createAppHandler(App);
      expect((await handler({ command: 'validate' })).results).toEqual([]);
      const broken = { ...App, triggers: { ...App.triggers, new_job: { ...App.triggers.new_job, key: 'new job', noun: '' } } };
      const errors = (await zapier.createAppHandler(broken)({ command: 'validate' })).results;
      expect(errors.length).toBeGreaterThan(0);
      expect(JSON.stringify(errors)).toMatch(/triggers\.new_job\.(key|noun)/);
    });

    it('depends on one exact zapier-platform-core (the CLI builds only against an exact version)', () => {
      const pkg = fromApp('./package.json');
      expect(pkg.dependencies).toEqual({ 'zapier-platform-core': zapier.version });
      expect(App.platformVersion).toBe(zapier.version);
    });

    it('answers a definition (what `zapier push` uploads) with the triggers, actions and searches the README lists', async () => {
      const def = (await zapier.createAppHandler(App)({ command: 'definition' })).results;
      expect(def.platformVersion).toBe(zapier.version);
      expect(def.authentication).toMatchObject({ type: 'custom', fields: [{ key: 'baseUrl' }, { key: 'apiKey', type: 'password' }] });
      expect(Object.keys(def.triggers).sort()).toEqual([
        'alert_fired',
        'clock_event',
        'job_completed',
        'member_list',
        'new_job',
        'place_check',
        'place_list',
      ]);
      expect(Object.keys(def.creates).sort()).toEqual(['create_job', 'create_place', 'update_job']);
      expect(Object.keys(def.searches).sort()).toEqual(['find_job', 'find_member']);
      for (const key of ['new_job', 'job_completed', 'place_check', 'clock_event', 'alert_fired']) {
        const op = App.triggers[key].operation;
        expect([key, op.type, typeof op.performSubscribe, typeof op.performUnsubscribe, typeof op.perform, typeof op.performList]).toEqual([
          key,
          'hook',
          'function',
          'function',
          'function',
          'function',
        ]);
      }
      for (const kind of ['triggers', 'creates', 'searches'] as const)
        for (const [key, item] of Object.entries<any>(App[kind])) {
          expect([key, typeof item.operation.sample, Array.isArray(item.operation.outputFields)]).toEqual([key, 'object', true]);
          expect([key, item.operation.outputFields.find((f: { key: string }) => f.key === 'id')?.primary]).toEqual([key, true]);
        }
    });
  });

  describe('authentication', () => {
    it('tests the connection with GET /v1/auth/whoami and labels it with the member and the company', async () => {
      const me = await run(App.authentication.test);
      expect(me).toEqual({
        member: { id: c.ownerUid, username: c.username, email: expect.any(String), name: expect.any(String), role: 'administrator' },
        company: { id: c.companyUid, name: 'Zap Co', username: c.username },
      });
      expect(await run(App.authentication.connectionLabel, { inputData: me })).toBe(`${c.username} (Zap Co)`);
    });

    it('takes the base URL with a trailing slash or /v1', async () => {
      for (const baseUrl of [`${api.url}/`, `${api.url}/v1`, ` ${api.url}/v1/ `]) {
        const me = await appTester(App.authentication.test, { authData: { ...authData, baseUrl } });
        expect(me.member.id).toBe(c.ownerUid);
      }
    });

    it('refuses a wrong key with the service’s 401 sentence, and a base URL that is not http(s)', async () => {
      await expect(appTester(App.authentication.test, { authData: { ...authData, apiKey: 'fwk_00000000_wrong' } })).rejects.toThrow(
        /Fieldwork refused the API key \(401: /,
      );
      await expect(appTester(App.authentication.test, { authData: { ...authData, baseUrl: 'ftp://example.com' } })).rejects.toThrow(
        /Fieldwork URL must start with https:\/\/ or http:\/\//,
      );
      await expect(appTester(App.authentication.test, { authData: { ...authData, baseUrl: 'not a url' } })).rejects.toThrow(
        /Fieldwork URL must be an http\(s\) URL/,
      );
    });
  });

  describe('actions and searches', () => {
    let worker: { uid: string; username: string };
    beforeAll(async () => {
      worker = await createMember(api, c, { role: 'worker', name: 'Ana Zapnik' });
    });

    it('Create Job posts every field and answers the job as /v1/jobs has it', async () => {
      const job = await run(creates.create_job.operation.perform, {
        inputData: {
          title: 'Boiler service',
          externalId: 'ZAP-1',
          address: 'Trg 1',
          notes: 'Ring twice',
          date: '2030-05-14',
          windowStart: '09:00',
          windowEnd: '11:30',
          assigneeUsername: worker.username,
          priority: 3,
          contactName: 'Marko',
          contactPhone: '+386 1 234 5678',
          contactEmail: 'marko@example.com',
          placeId: '',
        },
      });
      expect(job).toMatchObject({
        title: 'Boiler service',
        externalId: 'ZAP-1',
        address: 'Trg 1',
        notes: 'Ring twice',
        date: '2030-05-14',
        timeWindow: { start: '09:00', end: '11:30' },
        placeId: null,
        priority: 3,
        progress: 'scheduled',
        archived: false,
        assignee: { id: worker.uid, username: worker.username },
        contact: { name: 'Marko', phone: '+386 1 234 5678', email: 'marko@example.com' },
      });
      expect(sortedKeys(job)).toEqual(sortedKeys(samples.job));
      const stored = await connector(api, 'GET', `/v1/jobs/${job.id}`, c.key);
      expect(stored.body.data.items[0]).toEqual(job);
    });

    it('Create Job with an external id another job has updates that job (the connector’s dedupe)', async () => {
      const first = await run(creates.create_job.operation.perform, { inputData: { title: 'First', externalId: 'ZAP-DEDUPE' } });
      const again = await run(creates.create_job.operation.perform, { inputData: { title: 'Second', externalId: 'ZAP-DEDUPE' } });
      expect(again).toMatchObject({ id: first.id, title: 'Second', externalId: 'ZAP-DEDUPE' });
    });

    it('Create Job shows the service’s 400 sentence naming the field and the rule', async () => {
      await expect(run(creates.create_job.operation.perform, { inputData: { title: 'Bad day', date: '2030-02-30' } })).rejects.toThrow(
        /body\.date.*must be a real date YYYY-MM-DD/,
      );
      await expect(
        run(creates.create_job.operation.perform, { inputData: { title: 'Nobody', assigneeUsername: 'nobody@example.test' } }),
      ).rejects.toThrow(/body\.assigneeUsername/);
    });

    it('Update Job changes only the fields filled in; an unknown id is a 404', async () => {
      const job = await run(creates.create_job.operation.perform, {
        inputData: { title: 'To change', address: 'Old street', priority: 1 },
      });
      const changed = await run(creates.update_job.operation.perform, {
        inputData: { id: job.id, title: '', address: 'New street', windowEnd: '17:00', assigneeUsername: worker.username },
      });
      expect(changed).toMatchObject({
        id: job.id,
        title: 'To change',
        address: 'New street',
        priority: 1,
        timeWindow: { start: null, end: '17:00' },
        assignee: { username: worker.username },
      });
      expect(changed.updatedAt).toBeGreaterThanOrEqual(job.updatedAt);
      await expect(run(creates.update_job.operation.perform, { inputData: { id: 'NOSUCHJOB', title: 'x' } })).rejects.toThrow(
        /Not found \(404: /,
      );
    });

    it('Find Job finds a job by external id (archived ones only when asked), else nothing', async () => {
      const job = await run(creates.create_job.operation.perform, { inputData: { title: 'Findable', externalId: 'ZAP-FIND' } });
      expect(await run(searches.find_job.operation.perform, { inputData: { externalId: 'ZAP-FIND' } })).toEqual([job]);
      expect(await run(searches.find_job.operation.perform, { inputData: { externalId: 'ZAP-NONE' } })).toEqual([]);
      expect((await connector(api, 'POST', `/v1/jobs/${job.id}/archive`, c.key)).http).toBe(200);
      expect(await run(searches.find_job.operation.perform, { inputData: { externalId: 'ZAP-FIND', includeArchived: false } })).toEqual([]);
      const [archived] = await run(searches.find_job.operation.perform, { inputData: { externalId: 'ZAP-FIND', includeArchived: 'true' } });
      expect(archived).toMatchObject({ id: job.id, archived: true });
    });

    it('Find Member finds active members by part of a name, username or e-mail; the hidden list feeds the assignee dropdown', async () => {
      const found = await run(searches.find_member.operation.perform, { inputData: { query: 'zapnik' } });
      expect(found).toEqual([{ id: worker.uid, username: worker.username, email: expect.any(String), name: 'Ana Zapnik' }]);
      expect(sortedKeys(found[0])).toEqual(sortedKeys(samples.member));
      expect(await run(searches.find_member.operation.perform, { inputData: { query: 'no such person' } })).toEqual([]);
      const listed = await run(triggers.member_list.operation.perform);
      expect(listed.map((m: { username: string }) => m.username)).toEqual(expect.arrayContaining([c.username, worker.username]));
    });

    it('Create Place posts the fields with latitude and longitude as location; the hidden list has it', async () => {
      const place = await run(creates.create_place.operation.perform, {
        inputData: {
          name: 'Depot Zap',
          address: 'Trg 1',
          city: 'Ljubljana',
          postalCode: '1000',
          countryCode: 'SI',
          latitude: 46.05,
          longitude: 14.5,
          radius: 80,
        },
      });
      expect(place).toMatchObject({
        name: 'Depot Zap',
        city: 'Ljubljana',
        countryCode: 'SI',
        location: { lat: 46.05, lng: 14.5 },
        radius: 80,
      });
      expect(sortedKeys(place)).toEqual(sortedKeys(samples.place));
      const listed = await run(triggers.place_list.operation.perform);
      expect(listed.map((p: { id: string }) => p.id)).toContain(place.id);
      await expect(run(creates.create_place.operation.perform, { inputData: { name: 'Half', latitude: 46 } })).rejects.toThrow(
        /Latitude and Longitude go together/,
      );
    });
  });

  describe('triggers: samples from the polling routes, deliveries through perform', () => {
    it('New Job lists the newest jobs first (performList) with the sample’s shape', async () => {
      const older = await run(creates.create_job.operation.perform, { inputData: { title: 'Older' } });
      const res = await action<{ jobs: Array<{ id: string }> }>(
        api,
        'createjobs',
        { jobs: [{ destinationName: 'Newer, through the action API' }] },
        { key: c.key },
      );
      const newer = res.body.jobs[0];
      const listed = await run(triggers.new_job.operation.performList, { meta: { isLoadingSample: true, limit: 3 } });
      expect(listed.length).toBeLessThanOrEqual(3);
      expect(listed.slice(0, 2).map((j: { id: string }) => j.id)).toEqual([newer.id, older.id]);
      for (const job of listed) expect(sortedKeys(job)).toEqual(sortedKeys(samples.job));
    });

    it('perform turns a delivery body {id, action, ts, data} into [data], and a body without an item into []', async () => {
      const job = await run(creates.create_job.operation.perform, { inputData: { title: 'Delivered' } });
      const cleanedRequest = { id: 'msg_01TEST', action: 'jobcreated', ts: Date.now(), data: job };
      expect(await run(triggers.new_job.operation.perform, { cleanedRequest })).toEqual([job]);
      expect(await run(triggers.new_job.operation.perform, { cleanedRequest: { id: 'msg_x', action: 'jobcreated', ts: 1 } })).toEqual([]);
      const checkin = { ...samples.checkin, kind: 'placecheckout' };
      expect(await run(triggers.place_check.operation.perform, { cleanedRequest: { data: checkin } })).toEqual([checkin]);
      expect(
        await run(triggers.place_check.operation.perform, { inputData: { kind: 'placecheckin' }, cleanedRequest: { data: checkin } }),
      ).toEqual([]);
      // a job check-in is no place visit, whatever the subscription delivered
      expect(await run(triggers.place_check.operation.perform, { cleanedRequest: { data: { ...checkin, kind: 'jobcheckin' } } })).toEqual(
        [],
      );
      const clock = { ...samples.clockEvent, kind: 'clockout' };
      expect(
        await run(triggers.clock_event.operation.perform, { inputData: { kind: 'clockout' }, cleanedRequest: { data: clock } }),
      ).toEqual([clock]);
      expect(
        await run(triggers.clock_event.operation.perform, { inputData: { kind: 'clockin' }, cleanedRequest: { data: clock } }),
      ).toEqual([]);
    });

    it('Job Completed lists completed jobs, newest change first, optionally of one outcome, and filters deliveries by it', async () => {
      const ok = await run(creates.create_job.operation.perform, { inputData: { title: 'Will succeed' } });
      const bad = await run(creates.create_job.operation.perform, { inputData: { title: 'Will fail' } });
      await run(creates.create_job.operation.perform, { inputData: { title: 'Stays open' } });
      const done = await action(
        api,
        'editjobs',
        { jobs: { [ok.id]: { tsDoneSuccess: Date.now() }, [bad.id]: { tsDoneFailed: Date.now() } } },
        { key: c.key },
      );
      expect(done.body.status).toBe(0);
      const both = await run(triggers.job_completed.operation.performList);
      expect(both.map((j: { id: string }) => j.id)).toEqual(expect.arrayContaining([ok.id, bad.id]));
      expect(both.every((j: { progress: string }) => j.progress === 'success' || j.progress === 'failed')).toBe(true);
      const failed = await run(triggers.job_completed.operation.performList, { inputData: { outcome: 'failed' } });
      expect(failed.map((j: { id: string }) => j.id)).toContain(bad.id);
      expect(failed.map((j: { id: string }) => j.id)).not.toContain(ok.id);
      const [succeeded] = (await connector(api, 'GET', `/v1/jobs/${ok.id}`, c.key)).body.data.items;
      const delivery = { cleanedRequest: { id: 'msg_01TEST', action: 'jobcompleted', ts: Date.now(), data: succeeded } };
      expect(await run(triggers.job_completed.operation.perform, delivery)).toEqual([succeeded]);
      expect(await run(triggers.job_completed.operation.perform, { ...delivery, inputData: { outcome: 'failed' } })).toEqual([]);
    });

    it('Check-in or Check-out lists place check-ins of the kind asked for, newest first', async () => {
      const listed = await run(triggers.place_check.operation.performList, { inputData: { kind: 'placecheckin' } });
      expect(Array.isArray(listed)).toBe(true);
      expect(listed.every((i: { kind: string }) => i.kind === 'placecheckin')).toBe(true);
    });

    it('Clock In or Out lists clock events', async () => {
      expect(Array.isArray(await run(triggers.clock_event.operation.performList))).toBe(true);
    });

    it('Alert Fired lists alert firings', async () => {
      expect(Array.isArray(await run(triggers.alert_fired.operation.performList))).toBe(true);
    });
  });

  describe('instant triggers: subscribe, a real event through the worker, unsubscribe', () => {
    let hookSeq = 0;
    /** Subscribes `trigger` (as Zapier does when a Zap is turned on) with a target URL on the receiver. */
    async function subscribe(trigger: string, inputData: Record<string, unknown> = {}) {
      const path = `/zap-${trigger}-${++hookSeq}`;
      const targetUrl = receiver.url + path;
      const subscribeData = await run(triggers[trigger].operation.performSubscribe, { targetUrl, inputData });
      return { path, targetUrl, subscribeData, inputData };
    }
    /** The delivery at `path` as Zapier hands it to perform: the JSON body as `cleanedRequest`. */
    async function delivered(path: string) {
      const [r] = await receiver.waitFor(path, 1, 30_000);
      const body = bodyOf(r);
      expect(r.headers['webhook-id']).toBe(body.id);
      return body;
    }
    const hooksListed = async () => (await connector(api, 'GET', '/v1/hooks', c.key)).body.data.items.map((h: { id: string }) => h.id);

    it('New Job: subscribe → a job created through the app is delivered → perform → unsubscribe', async () => {
      const hook = await subscribe('new_job');
      expect(hook.subscribeData).toEqual({
        id: expect.any(String),
        event: 'jobcreated',
        url: hook.targetUrl,
        createdAt: expect.any(Number),
      });
      expect(await hooksListed()).toContain(hook.subscribeData.id);

      const job = await run(creates.create_job.operation.perform, { inputData: { title: 'Hooked', externalId: 'ZAP-HOOK' } });
      const body = await delivered(hook.path);
      expect(body).toMatchObject({ id: expect.stringMatching(/^msg_/), action: 'jobcreated', ts: expect.any(Number) });
      const results = await run(triggers.new_job.operation.perform, { cleanedRequest: body, inputData: hook.inputData });
      // the delivered item is the polling route's item: samples and live data agree
      const [listed] = await run(searches.find_job.operation.perform, { inputData: { externalId: 'ZAP-HOOK' } });
      expect(results).toEqual([listed]);
      expect(results[0]).toEqual(job);

      const gone = await run(triggers.new_job.operation.performUnsubscribe, { subscribeData: hook.subscribeData });
      expect(gone).toEqual({ id: hook.subscribeData.id, deleted: true });
      expect(await hooksListed()).not.toContain(hook.subscribeData.id);
      // turning a Zap off twice (or after the service dropped the subscription) does not fail
      expect(await run(triggers.new_job.operation.performUnsubscribe, { subscribeData: hook.subscribeData })).toEqual({
        id: hook.subscribeData.id,
        deleted: true,
      });
      await run(creates.create_job.operation.perform, { inputData: { title: 'After unsubscribing' } });
      await new Promise((r) => setTimeout(r, 2_000));
      expect(receiver.at(hook.path)).toHaveLength(1);
    });

    it('Job Completed: a job marked done is delivered; perform keeps only the outcome asked for', async () => {
      const hook = await subscribe('job_completed', { outcome: 'success' });
      expect(hook.subscribeData.event).toBe('jobcompleted');
      const job = await run(creates.create_job.operation.perform, { inputData: { title: 'Finish me' } });
      expect((await action(api, 'editjobs', { jobs: { [job.id]: { tsDoneSuccess: Date.now() } } }, { key: c.key })).body.status).toBe(0);
      const body = await delivered(hook.path);
      expect(body.action).toBe('jobcompleted');
      const results = await run(triggers.job_completed.operation.perform, { cleanedRequest: body, inputData: hook.inputData });
      expect(results).toEqual([expect.objectContaining({ id: job.id, progress: 'success' })]);
      expect(await run(triggers.job_completed.operation.perform, { cleanedRequest: body, inputData: { outcome: 'failed' } })).toEqual([]);
      await run(triggers.job_completed.operation.performUnsubscribe, { subscribeData: hook.subscribeData });
    });

    it('Clock In or Out: a phone switching tracking on is delivered as the item /v1/clock-events lists', async () => {
      const hook = await subscribe('clock_event');
      expect(hook.subscribeData.event).toBe('clock_in_out');
      const w = await createMember(api, c, { role: 'worker', name: 'Clock Zapnik' });
      const now = Date.now();
      const pushed = await action(
        api,
        'pushlocations',
        { locations: [{ ts: now - 1_000, lat: 46.05, lng: 14.5, acc: 5 }], tracking: true, tracking_ts: now },
        { key: w.key },
      );
      expect(pushed.body.status).toBe(0);
      const body = await delivered(hook.path);
      expect(body.action).toBe('clockin');
      const [item] = await run(triggers.clock_event.operation.perform, { cleanedRequest: body, inputData: hook.inputData });
      expect(item).toMatchObject({ kind: 'clockin', member: { id: w.uid, username: w.username, name: 'Clock Zapnik' }, ts: now });
      expect(sortedKeys(item)).toEqual(sortedKeys(samples.clockEvent));
      const listed = await run(triggers.clock_event.operation.performList, { inputData: { kind: 'clockin' } });
      expect(listed).toContainEqual(item);
      await run(triggers.clock_event.operation.performUnsubscribe, { subscribeData: hook.subscribeData });
    });

    it('Check-in at a Place: a member staying inside a place created through the app is delivered as the item /v1/checkins lists', async () => {
      const place = await run(creates.create_place.operation.perform, {
        inputData: { name: 'Zap depot', latitude: 46.0511, longitude: 14.5051, radius: 100 },
      });
      const hook = await subscribe('place_check', { kind: 'placecheckin' });
      expect(hook.subscribeData.event).toBe('placecheckin');
      const w = await createMember(api, c, { role: 'worker', name: 'Visit Zapnik' });
      // 90 s of fixes 10 m from the centre, five minutes ago: inside for longer than the 60 s dwell
      const t0 = Date.now() - 5 * 60_000;
      const locations = Array.from({ length: 19 }, (_, i) => ({ ts: t0 + i * 5_000, lat: 46.0511, lng: 14.50523, acc: 5 }));
      expect((await action(api, 'pushlocations', { locations }, { key: w.key })).body.status).toBe(0);
      const body = await delivered(hook.path);
      expect(body.action).toBe('placecheckin');
      const [item] = await run(triggers.place_check.operation.perform, { cleanedRequest: body, inputData: hook.inputData });
      expect(item).toMatchObject({ kind: 'placecheckin', member: { id: w.uid }, place: { id: place.id, name: 'Zap depot' }, ts: t0 });
      expect(sortedKeys(item)).toEqual(sortedKeys(samples.checkin));
      const listed = await run(triggers.place_check.operation.performList, { inputData: { kind: 'placecheckin' } });
      expect(listed).toContainEqual(item);
      await run(triggers.place_check.operation.performUnsubscribe, { subscribeData: hook.subscribeData });
    });

    it('Alert Fired: a low battery firing is delivered as the item /v1/alert-firings lists', async () => {
      const rule = await action<{ id: string }>(
        api,
        'createalert',
        { action: 'battery_low', title: 'Zap battery', description: 'Low battery' },
        { key: c.key },
      );
      expect(rule.body.status).toBe(0);
      const hook = await subscribe('alert_fired');
      expect(hook.subscribeData.event).toBe('alerttriggered');
      const w = await createMember(api, c, { role: 'worker', name: 'Battery Zapnik' });
      expect(
        (await action(api, 'pushlocations', { locations: [{ ts: Date.now(), lat: 46.05, lng: 14.5, acc: 5, bat: 9 }] }, { key: w.key }))
          .body.status,
      ).toBe(0);
      const body = await delivered(hook.path);
      expect(body.action).toBe('alerttriggered');
      const [item] = await run(triggers.alert_fired.operation.perform, { cleanedRequest: body });
      expect(item).toMatchObject({ action: 'battery_low', rule: { id: rule.body.id, title: 'Zap battery' }, member: { id: w.uid } });
      expect(sortedKeys(item)).toEqual(sortedKeys(samples.alertFiring));
      const listed = await run(triggers.alert_fired.operation.performList);
      expect(listed).toContainEqual(item);
      await run(triggers.alert_fired.operation.performUnsubscribe, { subscribeData: hook.subscribeData });
    });
  });
});
