import { DataSource } from 'typeorm';
import { createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { stopAllChildren, waitFor } from '../support/proc-child';
import { readCsv, reportCall } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * A synchronous createreport past REPORT_TIMEOUT_MS (CONTRACTS.md "Reports"): -99/503 with the
 * `reportId`, and the report still finishes for getreport. The api waits 1 s here and no worker runs
 * until after its answer, so the deadline is certain; then the BUILT worker renders the queued run.
 */
const PREFIX = `fieldwork-reports-deadline-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
const savedTimeout = process.env.REPORT_TIMEOUT_MS;
process.env.REPORT_TIMEOUT_MS = '1000';

describe('reports: the synchronous deadline', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
  }, 60_000);

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
    if (savedTimeout === undefined) delete process.env.REPORT_TIMEOUT_MS;
    else process.env.REPORT_TIMEOUT_MS = savedTimeout;
  });

  it('-99/503 with reportId past the wait; getreport answers the file once the worker ran it', async () => {
    const w = await createMember(api, company, { name: 'Late Report' });
    const t0 = Date.now();
    const late = await reportCall(api, 'createreport', { reporttype: 'members', format: 'csv', accounts: [w.uid] }, company.key);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(late.http).toBe(503);
    expect(late.json).toMatchObject({ status: -99 });
    expect(late.json!.error).toMatch(/report did not finish within 1 s/);
    const reportId = late.json!.reportId!;
    expect(reportId).toMatch(/^[0-9A-Z]{26}$/);
    expect((await reportCall(api, 'getreport', { reportId }, company.key)).json).toMatchObject({ status: 0, reportId, state: 'queued' });

    await startWorker('worker', { QUEUE_PREFIX: PREFIX }, (sql, params) => db.query(sql, params));
    const file = await waitFor(
      'the late report',
      async () => {
        const a = await reportCall(api, 'getreport', { reportId }, company.key);
        return a.json ? undefined : a;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(file.http).toBe(200);
    expect(readCsv(file.body).slice(1).map((r) => r[0])).toEqual(['Late Report']);
  });
});
