import { QueueName, TaskProducer } from '@app/core';
import { REPORT_RULES, REPORT_TYPES, ReportFormat, ReportType } from '@app/reports';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { stopAllChildren, waitFor } from '../support/proc-child';
import { readCsv, readGeoJson, readPdfText, readXlsx, readZip, reportCall, reportFile } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * createreport / getreport end to end (CONTRACTS.md "Reports"): every rule checked before anything is
 * queued, roles and tenancy, the members, places and alerts reports in each format opened by
 * independent readers, csv/xlsx injection, async + getreport, the retention prune through the BUILT
 * worker's maintenance queue. The worker renders in its report threads (real PostgreSQL and Redis).
 */
const PREFIX = `fieldwork-reports-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
// SheetJS turns xlsx dates into JS Dates in the process' zone: read them in UTC (our cells hold wall-clock times)
process.env.TZ = 'UTC';

const INJECTION = '=HYPERLINK("http://x","y")';

describe('reports', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let other: TestCompany;
  let w1: { uid: string; username: string; key: string };
  let w2: { uid: string; username: string; key: string };
  let evil: { uid: string; username: string; key: string };
  let foreign: { uid: string; username: string; key: string };
  const fixTs = Date.UTC(2026, 10, 20, 14, 5, 0); // 09:05 in New York, 15:05 in Ljubljana

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api, { timezone: 'Europe/Ljubljana', name: 'Reports Test Co' });
    other = await createCompany(api, { timezone: 'UTC' });
    w1 = await createMember(api, company, { name: 'Ana Kovač' });
    w2 = await createMember(api, company, { name: 'Luka Novak' });
    evil = await createMember(api, company, { name: INJECTION });
    foreign = await createMember(api, other, { name: 'Foreign Worker' });
    // the requester (owner) reads in New York time, 12-hour clock, US dates and miles
    const edited = await action(
      api,
      'editaccount',
      { uid: company.ownerUid, timezone: 'America/New_York', unit_time: '12', unit_date: 'MM/DD/YYYY', unit_distance: 'US' },
      { key: company.key },
    );
    expect(edited.body.status).toBe(0);
    const pushed = await action(api, 'pushlocations', { tracking: true, locations: [{ ts: fixTs, lat: 46.0512, lng: 14.5061, acc: 8, bat: 55 }] }, { key: w2.key });
    expect(pushed.body).toMatchObject({ status: 0, accepted: 1 });
    await startWorker('worker', { QUEUE_PREFIX: PREFIX }, (sql, params) => db.query(sql, params));
  }, 90_000);

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  const runsOf = async (c: TestCompany): Promise<number> =>
    Number((await db.query(`SELECT count(*) AS n FROM worker_runs WHERE company_id = $1`, [c.companyUid]))[0].n);

  describe('rules checked before anything is queued', () => {
    const cases: Array<[string, () => Record<string, unknown>, string]> = [
      ['unknown type', () => ({ reporttype: 'payroll', format: 'xlsx' }), 'data.reporttype'],
      ['format not allowed for the type', () => ({ reporttype: 'members', format: 'zip', accounts: [w1.uid] }), 'data.format'],
      ['format unknown', () => ({ reporttype: 'members', format: 'docx', accounts: [w1.uid] }), 'data.format'],
      ['timesheet as csv', () => ({ reporttype: 'timesheet', format: 'csv', day: 20261120, accounts: [w1.uid] }), 'data.format'],
      ['no dates', () => ({ reporttype: 'jobs', format: 'csv', accounts: [w1.uid] }), 'data.from'],
      ['from without until', () => ({ reporttype: 'jobs', format: 'csv', from: 20261101, accounts: [w1.uid] }), 'data.until'],
      ['day and a range', () => ({ reporttype: 'jobs', format: 'csv', day: 20261101, from: 20261101, until: 20261102, accounts: [w1.uid] }), 'data.day'],
      ['until before from', () => ({ reporttype: 'jobs', format: 'csv', from: 20261105, until: 20261101, accounts: [w1.uid] }), 'data.until'],
      ['not a real day', () => ({ reporttype: 'jobs', format: 'csv', day: 20261131, accounts: [w1.uid] }), 'data.day'],
      ['activities over 30 days', () => ({ reporttype: 'activities', format: 'csv', from: 20261001, until: 20261031, accounts: [w1.uid] }), 'data.until'],
      ['timeline over 14 days', () => ({ reporttype: 'timeline', format: 'csv', from: 20261101, until: 20261115, accounts: [w1.uid] }), 'data.until'],
      ['single-day type given a range', () => ({ reporttype: 'dayroute', format: 'csv', from: 20261101, until: 20261102, accounts: [w1.uid] }), 'data.until'],
      ['accounts missing', () => ({ reporttype: 'members', format: 'csv' }), 'data.accounts'],
      ['accounts empty', () => ({ reporttype: 'members', format: 'csv', accounts: [] }), 'data.accounts'],
      ['place report without places', () => ({ reporttype: 'places', format: 'csv' }), 'data.accounts'],
      ['unknown account', () => ({ reporttype: 'members', format: 'csv', accounts: [w1.uid, 'nobody@example.test'] }), 'data.accounts'],
      ['another company’s member', () => ({ reporttype: 'members', format: 'csv', accounts: [foreign.uid] }), 'data.accounts'],
      ['a member uid as a place', () => ({ reporttype: 'places', format: 'csv', accounts: [w1.uid] }), 'data.accounts'],
      ['unknown column', () => ({ reporttype: 'members', format: 'csv', accounts: [w1.uid], columns: [{ key: 'salary' }] }), 'data.columns[0].key'],
      ['column without key', () => ({ reporttype: 'members', format: 'csv', accounts: [w1.uid], columns: [{ rename: 'x' }] }), 'data.columns[0].key'],
      ['accounts not strings', () => ({ reporttype: 'members', format: 'csv', accounts: [42] }), 'data.accounts'],
      ['bom not a boolean', () => ({ reporttype: 'members', format: 'csv', accounts: [w1.uid], bom: 'no' }), 'data.bom'],
    ];
    it.each(cases)('%s → -1 naming %s, nothing queued', async (_name, data, field) => {
      const before = await runsOf(company);
      const a = await reportCall(api, 'createreport', data(), company.key);
      expect(a.http).toBe(400);
      expect(a.json).toMatchObject({ status: -1 });
      expect(a.json!.error).toContain(field);
      expect(await runsOf(company)).toBe(before);
    });

    it('unknown accounts are named in the error', async () => {
      const a = await reportCall(api, 'createreport', { reporttype: 'members', format: 'csv', accounts: ['ghost-1', w1.username, 'ghost-2'] }, company.key);
      expect(a.json!.error).toMatch(/unknown accounts: ghost-1, ghost-2/);
    });

    it('members and places take no dates and ignore any', async () => {
      const a = await reportFile(api, { reporttype: 'members', format: 'csv', accounts: [w1.uid], from: 20990101, until: 20990102 }, company.key);
      expect(a.disposition).toBe('attachment; filename="members.csv"');
    });
  });

  describe('members report', () => {
    const accounts = () => [w1.username, w2.uid, evil.uid];

    it('csv: header, rows in request order, requester’s time zone and formats, injection inert', async () => {
      const a = await reportFile(api, { reporttype: 'members', format: 'csv', accounts: accounts() }, company.key);
      expect(a.contentType).toBe('text/csv; charset=utf-8');
      expect(a.disposition).toBe('attachment; filename="members.csv"');
      // a UTF-8 byte-order mark first, so Excel reads "Kovač" as UTF-8; CRLF line ends
      expect(a.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(a.body.toString('utf8').split('\r\n')[1]).toMatch(/^Ana Kovač,/);
      const rows = readCsv(a.body);
      const header = rows[0];
      expect(header.slice(0, 3)).toEqual(['Name', 'Username', 'Role']);
      expect(rows).toHaveLength(4);
      const col = (k: string) => header.indexOf(k);
      expect(rows[1][col('Name')]).toBe('Ana Kovač');
      expect(rows[1][col('Username')]).toBe(w1.username);
      expect(rows[2][col('Name')]).toBe('Luka Novak');
      // 14:05 UTC = 9:05 AM in New York, written with the requester's MM/DD/YYYY and 12-hour clock
      expect(rows[2][col('Last location at')]).toMatch(/^11\/20\/2026 0?9:05( |\u202f)?AM$/);
      expect(Number(rows[2][col('Latitude')])).toBeCloseTo(46.0512, 4);
      expect(rows[2][col('Battery (%)')]).toBe('55');
      expect(rows[2][col('Tracking')]).toBe('✓');
      expect(rows[1][col('Tracking')]).toBe('');
      expect(rows[1][col('Last location at')]).toBe('');
      // a cell that would start a formula comes out as text
      expect(rows[3][col('Name')]).toBe(`'${INJECTION}`);
    });

    it('columns: chosen, renamed, shown as a check mark; bom: false', async () => {
      const a = await reportFile(
        api,
        { reporttype: 'members', format: 'csv', bom: false, accounts: [w2.uid, w1.uid], columns: [{ key: 'uid', rename: 'Member id' }, { key: 'name' }, { key: 'battery', isCheck: true }] },
        company.key,
      );
      // bom: false leaves the byte-order mark out
      expect(a.body.toString('utf8').startsWith('Member id,')).toBe(true);
      expect(readCsv(a.body)).toEqual([
        ['Member id', 'Name', 'Battery (%)'],
        [w2.uid, 'Luka Novak', '✓'],
        [w1.uid, 'Ana Kovač', ''],
      ]);
    });

    it('xlsx: real numbers and dates (wall clock of the requester’s zone), formula text stays text', async () => {
      const a = await reportFile(api, { reporttype: 'members', format: 'xlsx', accounts: accounts() }, company.key);
      expect(a.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const rows = readXlsx(a.body);
      const header = rows[0] as string[];
      const col = (k: string) => header.indexOf(k);
      expect(rows).toHaveLength(4);
      expect(rows[2][col('Name')]).toBe('Luka Novak');
      expect(rows[2][col('Latitude')]).toBeCloseTo(46.0512, 4);
      expect(rows[2][col('Battery (%)')]).toBe(55);
      const seen = rows[2][col('Last location at')] as Date;
      expect(seen).toBeInstanceOf(Date);
      // an Excel date is a float of days: within a second of 09:05 wall clock
      expect(Math.abs(seen.getTime() - Date.UTC(2026, 10, 20, 9, 5))).toBeLessThan(1000);
      expect(rows[3][col('Name')]).toBe(INJECTION);
      const sheetXml = (await readZip(a.body)).get('xl/worksheets/sheet1.xml')!.toString('utf8');
      expect(sheetXml).not.toContain('<f>');
    });

    it('pdf: title, company, rows (pdftotext)', async () => {
      const a = await reportFile(api, { reporttype: 'members', format: 'pdf', accounts: accounts() }, company.key);
      expect(a.contentType).toBe('application/pdf');
      const text = readPdfText(a.body);
      expect(text).toContain('Members');
      expect(text).toContain('Reports Test Co');
      expect(text).toContain('Luka Novak');
      expect(text).toContain('Ana Kovač');
    });

    it('geojson: a Feature per member, Point where located, null geometry kept', async () => {
      const a = await reportFile(api, { reporttype: 'members', format: 'geojson', accounts: accounts() }, company.key);
      expect(a.contentType).toBe('application/geo+json');
      const fc = readGeoJson(a.body);
      expect(fc.features).toHaveLength(3);
      expect(fc.features[0].geometry).toBeNull();
      expect(fc.features[1].geometry).toEqual({ type: 'Point', coordinates: [14.5061, 46.0512] });
      expect(fc.features[1].properties).toMatchObject({ name: 'Luka Novak', username: w2.username, battery: 55 });
    });
  });

  describe('places report', () => {
    it('every format, in request order, with positions', async () => {
      const created: string[] = [];
      for (const [name, lat, lng] of [
        ['Depot', 46.0569, 14.5058],
        ['Warehouse', 46.07, 14.52],
      ] as const) {
        const r = await action<{ uid: string }>(api, 'createplace', { name, location: { lat, lng }, radius: 80, city: 'Ljubljana' }, { key: company.key });
        expect(r.body.status).toBe(0);
        created.push(r.body.uid);
      }
      const ordered = [created[1], created[0]];
      const csv = readCsv((await reportFile(api, { reporttype: 'places', format: 'csv', accounts: ordered }, company.key)).body);
      expect(csv.slice(1).map((r) => r[0])).toEqual(['Warehouse', 'Depot']);
      expect(csv[0]).toContain('Radius (m)');
      const xlsx = readXlsx((await reportFile(api, { reporttype: 'places', format: 'xlsx', accounts: ordered }, company.key)).body);
      expect(xlsx[2][0]).toBe('Depot');
      expect(xlsx[2][(xlsx[0] as string[]).indexOf('Latitude')]).toBeCloseTo(46.0569, 6);
      const fc = readGeoJson((await reportFile(api, { reporttype: 'places', format: 'geojson', accounts: ordered }, company.key)).body);
      expect(fc.features.map((f) => f.geometry)).toEqual([
        { type: 'Point', coordinates: [14.52, 46.07] },
        { type: 'Point', coordinates: [14.5058, 46.0569] },
      ]);
      expect(readPdfText((await reportFile(api, { reporttype: 'places', format: 'pdf', accounts: ordered }, company.key)).body)).toContain('Warehouse');
      // a deleted place is unknown
      expect((await action(api, 'deleteplace', { uid: created[0] }, { key: company.key })).body.status).toBe(0);
      const gone = await reportCall(api, 'createreport', { reporttype: 'places', format: 'csv', accounts: [created[0]] }, company.key);
      expect(gone.json).toMatchObject({ status: -1 });
      expect(gone.json!.error).toContain(created[0]);
    });
  });

  describe('alerts report', () => {
    let ruleId: string;

    beforeAll(async () => {
      const rule = await action<{ id: string }>(api, 'createalert', { title: 'Left the depot', action: 'checks_out' }, { key: company.key });
      expect(rule.body.status).toBe(0);
      ruleId = rule.body.id;
      // firings as the alerts evaluator stores them (its own e2e fires them from real fixes); one
      // before the range, two inside (Ljubljana days 20261120–20261121), one in another company
      const insert = `INSERT INTO alert_firings (company_id, id, rule_id, member_id, action, occurrence, check_type, message, ts, created_at)
                      VALUES ($1, $2, $3, $4, 'checks_out', $2, 'OUT', $5, $6, $6)`;
      await db.query(insert, [company.companyUid, 'F1', ruleId, w2.uid, 'Luka Novak checked out early', Date.UTC(2026, 10, 19, 22, 59)]);
      await db.query(insert, [company.companyUid, 'F2', ruleId, w2.uid, 'Luka Novak checked out of Depot at 15:06', fixTs + 60_000]);
      await db.query(insert, [company.companyUid, 'F3', ruleId, w1.uid, `Ana Kovač checked out ${INJECTION}`, Date.UTC(2026, 10, 21, 22, 59)]);
      await db.query(insert, [other.companyUid, 'F4', ruleId, foreign.uid, 'not ours', fixTs]);
    });

    it('the range’s firings of the company, time-ordered, located at the member’s fix', async () => {
      const range = { reporttype: 'alerts', from: 20261120, until: 20261121 };
      const csvAnswer = await reportFile(api, { ...range, format: 'csv' }, company.key);
      expect(csvAnswer.disposition).toBe('attachment; filename="alerts_20261120_20261121.csv"');
      const csv = readCsv(csvAnswer.body);
      const col = (k: string) => csv[0].indexOf(k);
      expect(csv.slice(1).map((r) => r[col('Message')])).toEqual(['Luka Novak checked out of Depot at 15:06', `Ana Kovač checked out ${INJECTION}`]);
      expect(csv[1][col('Alert')]).toBe('Left the depot');
      expect(csv[1][col('Check')]).toBe('OUT');
      const fc = readGeoJson((await reportFile(api, { ...range, format: 'geojson' }, company.key)).body);
      expect(fc.features[0].geometry).toEqual({ type: 'Point', coordinates: [14.5061, 46.0512] });
      expect(fc.features[1].geometry).toBeNull();
      const xlsx = readXlsx((await reportFile(api, { ...range, format: 'xlsx' }, company.key)).body);
      expect(xlsx).toHaveLength(3);
      expect(readPdfText((await reportFile(api, { ...range, format: 'pdf' }, company.key)).body)).toContain('Left the depot');
      const single = readCsv((await reportFile(api, { reporttype: 'alerts', format: 'csv', day: 20261120 }, company.key)).body);
      expect(single).toHaveLength(2);
    });

    it('pdf over 10,000 rows → -1 before queueing', async () => {
      await db.query(
        `INSERT INTO alert_firings (company_id, id, rule_id, member_id, action, occurrence, message, ts, created_at)
         SELECT $1, 'bulk' || g, $2, $3, 'checks_out', 'bulk' || g, 'bulk', $4::bigint + g, $4::bigint + g FROM generate_series(1, 10001) g`,
        [company.companyUid, ruleId, w1.uid, Date.UTC(2026, 9, 1)],
      );
      const before = await runsOf(company);
      const a = await reportCall(api, 'createreport', { reporttype: 'alerts', format: 'pdf', day: 20261001 }, company.key);
      expect(a.http).toBe(400);
      expect(a.json!.error).toContain('too many rows for pdf (10001 > 10000): use xlsx or csv');
      expect(await runsOf(company)).toBe(before);
      const csv = readCsv((await reportFile(api, { reporttype: 'alerts', format: 'csv', day: 20261001 }, company.key)).body);
      expect(csv).toHaveLength(10002);
    });
  });

  describe('every type in every format the spec lists', () => {
    /** The request of `type` over the seeded members, places and days. */
    const requestOf = (type: ReportType, format: ReportFormat, places: string[]) => {
      const rule = REPORT_RULES[type];
      const dates = rule.range === 'none' ? {} : rule.range === 'single' ? { day: 20261120 } : { from: 20261120, until: 20261121 };
      const accounts = rule.subjects === 'members' ? [w1.uid, w2.uid] : rule.subjects === 'places' ? places : undefined;
      return { reporttype: type, format, ...dates, ...(accounts ? { accounts } : {}) };
    };
    const matrix = REPORT_TYPES.flatMap((type) => REPORT_RULES[type].formats.map((format) => [type, format] as const));

    it('lists 17 types and their formats as the spec’s table does', () => {
      expect(REPORT_TYPES).toHaveLength(17);
      expect(matrix).toHaveLength(55);
    });

    it.each(matrix)('%s as %s: the pinned headers, a file its reader opens, one header row or feature list', async (type, format) => {
      const place = await action<{ uid: string }>(api, 'createplace', { name: `Matrix ${type} ${format}`, location: { lat: 46.05, lng: 14.5 } }, { key: company.key });
      const a = await reportFile(api, requestOf(type, format, [place.body.uid]), company.key);
      const rule = REPORT_RULES[type];
      const name = rule.range === 'none' ? `${type}.${format}` : rule.range === 'single' ? `${type}_20261120.${format}` : `${type}_20261120_20261121.${format}`;
      expect(a.disposition).toBe(`attachment; filename="${name}"`);
      switch (format) {
        case 'xlsx':
          expect(a.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
          expect((readXlsx(a.body)[0] as unknown[]).length).toBeGreaterThan(0);
          break;
        case 'csv':
          expect(a.contentType).toBe('text/csv; charset=utf-8');
          expect(readCsv(a.body)[0].length).toBeGreaterThan(0);
          break;
        case 'pdf':
          expect(a.contentType).toBe('application/pdf');
          expect(readPdfText(a.body)).toContain('Reports Test Co');
          break;
        case 'geojson':
          expect(a.contentType).toBe('application/geo+json');
          expect(Array.isArray(readGeoJson(a.body).features)).toBe(true);
          break;
        case 'zip':
          expect(a.contentType).toBe('application/zip');
          await readZip(a.body); // opens (an empty zip when the range holds nothing to put in it)
          break;
      }
    });
  });

  describe('roles and tenancy', () => {
    it('a worker may not request company-wide reports or report on others', async () => {
      for (const data of [
        { reporttype: 'members', format: 'csv', accounts: [w1.uid] },
        { reporttype: 'alerts', format: 'csv', day: 20261120 },
      ]) {
        const a = await reportCall(api, 'createreport', data, w1.key);
        expect(a.http).toBe(403);
        expect(a.json).toMatchObject({ status: -5 });
      }
    });

    it('another company’s report is an unknown id; a worker cannot read a colleague’s', async () => {
      const started = await reportCall(api, 'createreport', { reporttype: 'members', format: 'csv', accounts: [w1.uid], async: true }, company.key);
      const reportId = started.json!.reportId!;
      const foreignRead = await reportCall(api, 'getreport', { reportId }, other.key);
      expect(foreignRead.http).toBe(404);
      expect(foreignRead.json).toEqual({ status: 1001, error: `data.reportId: report ${reportId} not found` });
      const workerRead = await reportCall(api, 'getreport', { reportId }, w1.key);
      expect(workerRead.http).toBe(404);
    });
  });

  describe('async and getreport, retention', () => {
    it('async answers {reportId, state} at once; getreport answers the file once done; the prune removes it', async () => {
      const started = await reportCall(api, 'createreport', { reporttype: 'members', format: 'csv', accounts: [w1.uid, w2.uid], async: true }, company.key);
      expect(started.http).toBe(200);
      expect(started.json).toMatchObject({ status: 0, state: 'queued' });
      const reportId = started.json!.reportId!;
      expect(reportId).toMatch(/^[0-9A-Z]{26}$/);
      const file = await waitFor(
        'the report',
        async () => {
          const a = await reportCall(api, 'getreport', { reportId }, company.key);
          if (a.json) {
            expect(a.json).toMatchObject({ status: 0, reportId });
            expect(['queued', 'running']).toContain(a.json.state);
            return undefined;
          }
          return a;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(file.disposition).toBe('attachment; filename="members.csv"');
      expect(readCsv(file.body)).toHaveLength(3);
      // read twice: the stored file stays until the retention
      expect(readCsv((await reportCall(api, 'getreport', { reportId }, company.key)).body)).toHaveLength(3);

      await api.app.get(TaskProducer).add(QueueName.Maintenance, 'prune-reports', { before: Date.now() + 1000 });
      await waitFor(
        'the prune',
        async () => Number((await db.query(`SELECT count(*) AS n FROM report_chunks WHERE report_id = $1`, [reportId]))[0].n) === 0 || undefined,
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      const gone = await reportCall(api, 'getreport', { reportId }, company.key);
      expect(gone.http).toBe(404);
    });

    it('getreport of an unknown id → 1001', async () => {
      const a = await reportCall(api, 'getreport', { reportId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, company.key);
      expect(a.http).toBe(404);
      expect(a.json).toEqual({ status: 1001, error: 'data.reportId: report 01ARZ3NDEKTSV4RRFFQ69G5FAV not found' });
    });
  });
});
