import { DataSource } from 'typeorm';
import { CREATE_REPORT } from '../../apps/api/src/reports/reports.connector.examples';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { stopAllChildren } from '../support/proc-child';
import { readCsv, readXlsx, reportFile } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * `POST /v1/reports` over real HTTP with the BUILT worker rendering (CONTRACTS.md "Wave 3: connector
 * for automation platforms"; docs/connector.md "Reports"): the file as createreport answers it (same
 * bytes, `Content-Type`, `Content-Disposition`), `bom`, createreport's rules and roles with errors in the
 * connector's shape naming its fields, and tenant isolation.
 */
const PREFIX = `fieldwork-connector-reports-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

interface FileAnswer {
  http: number;
  contentType: string;
  disposition: string;
  body: Buffer;
  json?: any;
}

describe('POST /v1/reports', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let other: TestCompany;
  let ana: { uid: string; username: string; key: string };
  let bor: { uid: string; username: string; key: string };
  let foreign: { uid: string; username: string; key: string };

  const post = async (body: unknown, key: string): Promise<FileAnswer> => {
    const res = await fetch(`${api.url}/v1/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': key },
      body: JSON.stringify(body),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    const contentType = res.headers.get('content-type') ?? '';
    const answer: FileAnswer = { http: res.status, contentType, disposition: res.headers.get('content-disposition') ?? '', body: buf };
    if (contentType.startsWith('application/json')) answer.json = JSON.parse(buf.toString('utf8'));
    return answer;
  };
  const runsOf = async (c: TestCompany): Promise<number> =>
    Number((await db.query(`SELECT count(*) AS n FROM worker_runs WHERE company_id = $1`, [c.companyUid]))[0].n);

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
    other = await createCompany(api);
    ana = await createMember(api, company, { name: 'Ana Novak' });
    bor = await createMember(api, company, { name: 'Bor Kos' });
    foreign = await createMember(api, other, { name: 'Foreign' });
    const jobs = await action<any>(
      api,
      'createjobs',
      {
        jobs: [
          { destinationName: 'Replace boiler valve', day: 20260302, worker: ana.username, tsDoneSuccess: Date.UTC(2026, 2, 2, 10) },
          { destinationName: 'Annual inspection', day: 20260304, worker: ana.username },
          { destinationName: 'Not Ana’s', day: 20260303, worker: bor.username },
        ],
      },
      { key: company.key },
    );
    expect(jobs.body.status).toBe(0);
    await startWorker('worker', { QUEUE_PREFIX: PREFIX }, (sql, params) => db.query(sql, params));
  }, 90_000);

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  it('answers the OpenAPI example’s file for the example’s request, as createreport answers it (same bytes and headers)', async () => {
    const body: Record<string, unknown> = { ...(CREATE_REPORT.body as Record<string, unknown>), members: [ana.username] };
    const res = await post(body, company.key);
    expect({ http: res.http, error: res.json }).toEqual({ http: 200, error: undefined });
    expect(res.contentType).toBe('text/csv; charset=utf-8');
    expect(res.disposition).toBe('attachment; filename="jobs_20260302_20260308.csv"');
    expect(res.body.toString('utf8')).toBe(CREATE_REPORT.answer['text/csv; charset=utf-8']);

    const viaAction = await reportFile(
      api,
      { reporttype: 'jobs', format: 'csv', from: 20260302, until: 20260308, accounts: [ana.username], columns: body.columns, bom: false },
      company.key,
    );
    expect([viaAction.contentType, viaAction.disposition]).toEqual([res.contentType, res.disposition]);
    expect(viaAction.body.equals(res.body)).toBe(true);
  });

  it('csv starts with the byte-order mark unless bom is false; one date; other formats with their own type', async () => {
    const withBom = await post({ type: 'jobs', format: 'csv', date: '2026-03-02', members: [ana.uid] }, company.key);
    expect(withBom.http).toBe(200);
    expect([...withBom.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(withBom.disposition).toBe('attachment; filename="jobs_20260302.csv"');
    expect(
      readCsv(withBom.body)
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(['Replace boiler valve']);

    const xlsx = await post({ type: 'members', format: 'xlsx', members: [ana.uid, bor.username] }, company.key);
    expect(xlsx.http).toBe(200);
    expect(xlsx.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.disposition).toBe('attachment; filename="members.xlsx"');
    expect(
      readXlsx(xlsx.body)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(['Ana Novak', 'Bor Kos']);

    const place = await action<any>(api, 'createplace', { name: 'Depot', location: { lat: 46, lng: 14 } }, { key: company.key });
    const places = await post({ type: 'places', format: 'csv', places: [place.body.uid], bom: false }, company.key);
    expect(places.http).toBe(200);
    expect(readCsv(places.body)[1][0]).toBe('Depot');
  });

  it('bad input → 400 naming the connector’s field, in its shape; nothing queued', async () => {
    const before = await runsOf(company);
    const base = { type: 'jobs', format: 'csv', date: '2026-03-02', members: [ana.uid] };
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ ...base, type: 'payroll' }, /^body\.type: must be one of jobs, dayroute, /],
      [{ ...base, format: 'docx' }, 'body.format: must be one of xlsx, csv, pdf, geojson, zip'],
      [{ ...base, type: 'mileage' }, 'body.format: mileage reports come as xlsx'],
      [{ ...base, date: '2026-02-30' }, 'body.date: must be a real date YYYY-MM-DD'],
      [{ ...base, date: 20260302 }, 'body.date: must be a real date YYYY-MM-DD'],
      [{ ...base, date: undefined, from: '2026-03-02' }, 'body.until: required (YYYY-MM-DD) unless date is sent'],
      [{ ...base, from: '2026-03-02', until: '2026-03-03' }, 'body.date: send date, or from and until, not both'],
      [
        { ...base, type: 'timeline', date: undefined, from: '2026-03-01', until: '2026-03-31' },
        /^body\.until: timeline covers at most 14 days/,
      ],
      [{ ...base, members: undefined }, 'body.members: required for jobs: member usernames or uids'],
      [{ ...base, members: ['nobody@example.test'] }, 'body.members: unknown accounts: nobody@example.test'],
      [{ ...base, members: [foreign.uid] }, `body.members: unknown accounts: ${foreign.uid}`],
      [{ ...base, places: ['P1'] }, 'body.places: send members or places, not both'],
      [{ ...base, members: undefined, places: ['P1'] }, 'body.places: jobs reports are on members: send members'],
      [{ type: 'places', format: 'csv', places: [ana.uid] }, `body.places: unknown places: ${ana.uid}`],
      [{ ...base, columns: [{ key: 'salary' }] }, /^body\.columns\[0\]\.key: unknown column "salary" of jobs/],
      [{ ...base, bom: 'no' }, 'body.bom: must be a boolean value'],
      [{ ...base, accounts: [ana.uid] }, 'body.accounts: unknown field'],
      [{ ...base, async: true }, 'body.async: unknown field'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body, company.key);
      expect({ body, http: res.http, keys: Object.keys(res.json ?? {}) }).toEqual({ body, http: 400, keys: ['error'] });
      expect({ body, message: res.json.error.message }).toEqual({
        body,
        message: typeof message === 'string' ? message : expect.stringMatching(message),
      });
    }
    expect(await runsOf(company)).toBe(before);
    expect((await post({ ...base }, 'fwk_nope')).http).toBe(401);
  });

  it('a worker key: a report on itself only, no company-wide types (403 in the connector shape)', async () => {
    const own = await post({ type: 'jobs', format: 'csv', date: '2026-03-02', members: [ana.uid] }, ana.key);
    expect(own.http).toBe(200);
    const others = await post({ type: 'jobs', format: 'csv', date: '2026-03-02', members: [bor.uid] }, ana.key);
    expect({ http: others.http, body: others.json }).toEqual({
      http: 403,
      body: { error: { message: 'a worker may report only on itself' } },
    });
    const wide = await post({ type: 'alerts', format: 'csv', date: '2026-03-02' }, ana.key);
    expect({ http: wide.http, body: wide.json }).toEqual({
      http: 403,
      body: { error: { message: 'a worker may report only on itself: company-wide reports are for staff' } },
    });
    const alerts = await post({ type: 'alerts', format: 'csv', date: '2026-03-02', members: [ana.uid] }, company.key);
    expect(alerts.json.error.message).toBe('body.members: alerts reports are company-wide: send neither members nor places');
  });

  it('another company reads none of this company’s data: its members and places are unknown accounts', async () => {
    const res = await post({ type: 'jobs', format: 'csv', date: '2026-03-02', members: [ana.uid] }, other.key);
    expect({ http: res.http, body: res.json }).toEqual({
      http: 400,
      body: { error: { message: `body.members: unknown accounts: ${ana.uid}` } },
    });
    const own = await post({ type: 'jobs', format: 'csv', date: '2026-03-02', members: [foreign.uid], bom: false }, other.key);
    expect(own.http).toBe(200);
    expect(readCsv(own.body).length).toBe(1); // the header only: nothing of the other company
  });
});
