import fc from 'fast-check';
import { randomInt } from 'node:crypto';
import { action, connector, createCompany, createMember, startApi, TestApi } from '../support/api';
import { AnswerChecker, describeRequest, forAjv, FuzzContext, OpenApiDoc, operationsOf, requestArbitrary, send, seedFor } from './fuzz/harness';
import { osmandProblemOf, osmandRequestArbitrary } from './fuzz/osmand';
import { dropQueueKeys } from '../support/durability-redis';
import { stopAllChildren } from '../support/proc-child';
import { startWorker } from '../support/worker';
import { arbitraryOf, Schema } from './fuzz/schema-arbitrary';
import Ajv from 'ajv';
import { DataSource } from 'typeorm';

/**
 * Fuzzing from our own OpenAPI document (docs/fuzzing.md): for every operation `/docs/openapi.json`
 * lists — so a route added later is fuzzed without a line written for it — requests generated from
 * its request schema, mostly mutated, go over real HTTP to the booted api. Every answer: no 5xx,
 * errors in the surface's shape with CONTRACTS.md's status pairs, 2xx answers valid against their
 * documented schema, no hang; and the service is ready afterwards.
 *
 * `npm test` runs a short, fixed-seed pass (FUZZ_RUNS, default 30 per route); `npm run fuzz` runs
 * ≥ 1,000 per route with a random seed it prints. Replay: `FUZZ_SEED=<n> FUZZ_RUNS=<n> npm run fuzz`
 * (FUZZ_SHRINK=1 to shrink the failing request, FUZZ_ONLY=<substring of the route> to narrow).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = process.env.FUZZ_SEED === 'random' ? randomInt(2 ** 31) : Number(process.env.FUZZ_SEED ?? 20261123);
const SHRINK = process.env.FUZZ_SHRINK === '1';
const ONLY = process.env.FUZZ_ONLY;
// the built worker answers the actions it computes (dispatch): its own queue prefix
const PREFIX = `fieldwork-fuzz-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

describe(`fuzzing every documented operation (seed ${SEED}, ${RUNS} requests per route)`, () => {
  let api: TestApi;
  let doc: OpenApiDoc;
  let checker: AnswerChecker;
  const ctx: FuzzContext = { key: '', username: '', ids: [] };
  let sent = 0;
  let members: string[] = [];
  /** the worker's device id, so /osmand requests reach the ingest statement */
  let deviceId = '';
  /** Fresh jobs and a place before each route (earlier routes delete and archive them), plus the owner and a worker. */
  const refreshIds = async () => {
    const jobs: string[] = [];
    for (const title of ['fuzz one', 'fuzz two', 'fuzz three']) {
      const res = await connector(api, 'POST', '/v1/jobs', ctx.key, { title });
      jobs.push(res.body.data.items[0].id as string);
    }
    const place = await connector(api, 'POST', '/v1/places', ctx.key, { name: 'fuzz place', location: { lat: 46, lng: 14 } });
    ctx.ids = [...jobs, place.body.data.items[0].id as string, ...members];
  };
  /** HTTP statuses seen, per route: shows how far the run got past validation into the handlers */
  const statuses = new Map<string, Map<number, number>>();

  beforeAll(async () => {
    console.log(`fuzz: seed ${SEED}, ${RUNS} requests per route — replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
    api = await startApi();
    await startWorker('worker', { QUEUE_PREFIX: PREFIX }, (sql, params) => api.app.get(DataSource).query(sql, params));
    doc = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as OpenApiDoc;
    checker = new AnswerChecker(doc);
    const company = await createCompany(api);
    ctx.key = company.key;
    ctx.username = company.username;
    const worker = await createMember(api, company, { role: 'worker' });
    members = [company.ownerUid, worker.uid];
    deviceId = `fuzz-${worker.uid}`;
    await action(api, 'editaccount', { uid: worker.uid, device_id: deviceId }, { key: company.key });
  });

  afterAll(async () => {
    const line = (m: Map<number, number>) => [...m].sort(([a], [b]) => a - b).map(([http, n]) => `${http}×${n}`).join(' ');
    const total = new Map<number, number>();
    for (const m of statuses.values()) for (const [http, n] of m) total.set(http, (total.get(http) ?? 0) + n);
    const perRoute = [...statuses].map(([name, m]) => `  ${name}: ${line(m)}`).join('\n');
    console.log(`fuzz: ${sent} requests sent (seed ${SEED}); answers ${line(total)}\n${perRoute}`);
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  it('generates request values valid against their schemas (the converter itself)', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const schemas = Object.entries(doc.components.schemas).filter(([name]) => name.endsWith('Dto') || name.endsWith('Body'));
    expect(schemas.length).toBeGreaterThan(5);
    for (const [name, schema] of schemas) {
      const validate = ajv.compile(forAjv({ ...(schema as object), components: doc.components }) as object);
      // JSON round trip: what goes on the wire (and `-0`, `undefined` keys as JSON has them)
      for (const value of fc.sample(arbitraryOf(schema as Schema, doc.components.schemas), { numRuns: 20, seed: SEED })) {
        const wire = JSON.parse(JSON.stringify(value)) as unknown;
        expect({ name, value: wire, errors: validate(wire) ? null : validate.errors }).toEqual({ name, value: wire, errors: null });
      }
    }
  });

  it('fuzzes /osmand (Traccar Client) in its query, form and JSON forms: no 5xx, 200 with an empty body, errors {status, error}', async () => {
    const name = 'POST /osmand (query, form, JSON)';
    if (ONLY && !name.includes(ONLY) && !'GET /osmand'.includes(ONLY)) return;
    const op = doc.paths['/osmand'].post as Parameters<typeof osmandRequestArbitrary>[0];
    const mine = statuses.get(name) ?? statuses.set(name, new Map()).get(name)!;
    const result = await fc.check(
      fc.asyncProperty(osmandRequestArbitrary(op, doc.components.schemas, { deviceId }), async (r) => {
        sent += 1;
        let answer;
        try {
          answer = await send(api.url, r);
        } catch (err) {
          throw new Error(`no answer: ${(err as Error).message}\n  ${describeRequest(r)}`);
        }
        mine.set(answer.http, (mine.get(answer.http) ?? 0) + 1);
        const problem = osmandProblemOf(r, answer.http, answer.contentType, answer.text);
        if (problem) throw new Error(`${problem}\n  ${describeRequest(r)}`);
      }),
      { seed: seedFor(SEED, name), numRuns: RUNS * 4, endOnFailure: !SHRINK },
    );
    expect(result.failed ? String(result.errorInstance) : null).toBeNull();
    expect(mine.get(200) ?? 0).toBeGreaterThan(0);
  }, 60_000 + RUNS * 4_000);

  it('fuzzes every operation: no 5xx, errors in the surface’s shape, 2xx answers valid, no hang', async () => {
    const operations = operationsOf(doc).filter((o) => !ONLY || o.name.includes(ONLY));
    expect(operations.length).toBeGreaterThan(ONLY ? 0 : 20);
    const failures: string[] = [];
    for (const o of operations) {
      const seed = seedFor(SEED, o.name);
      await refreshIds();
      const result = await fc.check(
        fc.asyncProperty(requestArbitrary(o, doc, ctx), async (r) => {
          sent += 1;
          let answer;
          try {
            answer = await send(api.url, r);
          } catch (err) {
            throw new Error(`no answer: ${(err as Error).message}\n  ${describeRequest(r)}`);
          }
          const mine = statuses.get(o.name) ?? statuses.set(o.name, new Map()).get(o.name)!;
          mine.set(answer.http, (mine.get(answer.http) ?? 0) + 1);
          if (process.env.FUZZ_TRACE === '1' && answer.http === 400) console.log(`${o.name} 400 ${answer.text.slice(0, 160)}`);
          const problem = checker.problemOf(o, answer.http, answer.contentType, answer.text);
          if (problem) throw new Error(`${problem}\n  ${describeRequest(r)}`);
        }),
        { seed, numRuns: RUNS, endOnFailure: !SHRINK },
      );
      if (result.failed) {
        const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
        failures.push(`${o.name} (seed ${seed}, path ${result.counterexamplePath}): ${error}`);
      }
    }
    expect(failures).toEqual([]);
    // the service is still ready
    expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
  }, 120_000 + RUNS * 4_000);
});
