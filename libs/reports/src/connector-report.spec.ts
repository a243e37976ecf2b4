import 'reflect-metadata';
import { DomainError, forbidden, invalid, validationIssues } from '@app/core';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { connectorReportRequest, toConnectorReportError } from './connector-report';
import { ConnectorReportBody } from './dto/connector-report.dto';
import { CreateReportDto } from './dto/create-report.dto';

type Body = Omit<ConnectorReportBody, 'request' | 'completeValidation'>;
const request = (b: Partial<Body>) => connectorReportRequest({ type: 'jobs', format: 'csv', ...b } as Body, 'body');
const refusal = (b: Partial<Body>) => {
  try {
    request(b);
  } catch (err) {
    return (err as DomainError).message;
  }
  return null;
};

describe('connectorReportRequest (POST /v1/reports → createreport)', () => {
  it('maps the connector’s names to createreport’s: type, date → day, from/until → YYYYMMDD, members/places → accounts, columns, bom', () => {
    const one = request({ date: '2026-03-04', members: ['ana'], columns: [{ key: 'title' }], bom: false });
    expect(one).toBeInstanceOf(CreateReportDto);
    expect({ ...one }).toEqual({
      reporttype: 'jobs',
      format: 'csv',
      day: 20260304,
      accounts: ['ana'],
      columns: [{ key: 'title' }],
      bom: false,
    });
    expect(one.range()).toEqual({ from: 20260304, until: 20260304 });
    const range = request({ type: 'placeonsite', from: '2026-02-27', until: '2026-03-01', places: ['P1'] });
    expect({ ...range }).toEqual({ reporttype: 'placeonsite', format: 'csv', from: 20260227, until: 20260301, accounts: ['P1'] });
    expect({ ...request({ type: 'alerts', date: '2026-03-04' }) }).toEqual({ reporttype: 'alerts', format: 'csv', day: 20260304 });
    // undated types ignore dates, as createreport does
    expect(request({ type: 'members', members: ['ana'], date: '2026-03-04', from: '2026-03-01' }).range()).toBeUndefined();
  });

  it('members or places: the one the type takes, not both, neither for company-wide types', () => {
    expect(refusal({ date: '2026-03-04', members: ['a'], places: ['p'] })).toBe('body.places: send members or places, not both');
    expect(refusal({ date: '2026-03-04', places: ['p'] })).toBe('body.places: jobs reports are on members: send members');
    expect(refusal({ type: 'places', members: ['a'] })).toBe('body.members: places reports are on places: send places');
    expect(refusal({ type: 'alerts', date: '2026-03-04', members: ['a'] })).toBe(
      'body.members: alerts reports are company-wide: send neither members nor places',
    );
    expect(refusal({ date: '2026-03-04' })).toBe('body.members: required for jobs: member usernames or uids');
    expect(refusal({ type: 'placeonsite', date: '2026-03-04' })).toBe('body.places: required for placeonsite: place uids');
  });

  it('the date rules in the connector’s words', () => {
    expect(refusal({ members: ['a'] })).toBe('body.from: required (YYYY-MM-DD) unless date is sent');
    expect(refusal({ members: ['a'], from: '2026-03-01' })).toBe('body.until: required (YYYY-MM-DD) unless date is sent');
    expect(refusal({ members: ['a'], date: '2026-03-01', until: '2026-03-02' })).toBe('body.date: send date, or from and until, not both');
    expect(refusal({ members: ['a'], from: '2026-03-02', until: '2026-03-01' })).toBe('body.until: must not be before body.from');
    expect(refusal({ type: 'dayroute', members: ['a'], from: '2026-03-01', until: '2026-03-02' })).toBe(
      'body.until: dayroute covers a single day: send date, or from = until',
    );
    expect(refusal({ type: 'dayroute', members: ['a'], from: '2026-03-01', until: '2026-03-01' })).toBeNull();
    expect(refusal({ type: 'timeline', members: ['a'], from: '2026-02-27', until: '2026-03-12' })).toBeNull(); // 14 days
    expect(refusal({ type: 'timeline', members: ['a'], from: '2026-02-27', until: '2026-03-13' })).toBe(
      'body.until: timeline covers at most 14 days (from 2026-02-27 to 2026-03-13 is 15)',
    );
  });

  it('createreport’s other rules, naming the connector’s fields', () => {
    expect(refusal({ type: 'mileage', format: 'csv', date: '2026-03-04', members: ['a'] })).toBe(
      'body.format: mileage reports come as xlsx',
    );
    expect(refusal({ date: '2026-03-04', members: ['a'], columns: [{ key: 'title' }, { key: 'nope' }] })).toMatch(
      /^body\.columns\[1\]\.key: unknown column "nope" of jobs: one of /,
    );
  });
});

describe('ConnectorReportBody rules', () => {
  const issues = (plain: object) =>
    validationIssues(
      validateSync(plainToInstance(ConnectorReportBody, plain), { whitelist: true, forbidNonWhitelisted: true }),
      'body',
    ).map((i) => `${i.field}: ${i.rule}`);
  it('names each bad field once; dates are real YYYY-MM-DD; createreport-only keys are unknown here', () => {
    expect(issues({ type: 'jobs', format: 'csv', date: '2026-03-04', members: ['a'] })).toEqual([]);
    expect(issues({ type: 'nope', format: 'csv' })).toEqual([expect.stringMatching(/^body\.type: must be one of jobs, dayroute/)]);
    expect(issues({ type: 'jobs', format: 'csv', date: '2026-02-30' })).toEqual(['body.date: must be a real date YYYY-MM-DD']);
    expect(issues({ type: 'jobs', format: 'csv', from: '20260301' })).toEqual(['body.from: must be a real date YYYY-MM-DD']);
    expect(issues({ type: 'jobs', format: 'csv', members: 'ana' })).toEqual(['body.members: must be an array']);
    expect(issues({ type: 'jobs', format: 'csv', bom: 'no' })).toEqual(['body.bom: must be a boolean value']);
    expect(issues({ type: 'jobs', format: 'csv', reporttype: 'jobs', accounts: [], async: true }).sort()).toEqual([
      'body.accounts: unknown field',
      'body.async: unknown field',
      'body.reporttype: unknown field',
    ]);
  });
});

describe('toConnectorReportError', () => {
  it('renames createreport fields in the field and the message; accounts by the type’s subjects', () => {
    const named = toConnectorReportError(invalid('data.accounts', 'unknown accounts: x'), 'members') as DomainError;
    expect([named.kind, named.field, named.rule, named.message]).toEqual([
      'invalid',
      'body.members',
      'unknown accounts: x',
      'body.members: unknown accounts: x',
    ]);
    expect((toConnectorReportError(invalid('data.accounts', 'unknown places: p'), 'places') as DomainError).message).toBe(
      'body.places: unknown places: p',
    );
    const pdf = new DomainError(
      'invalid',
      'data.format: too many rows for pdf (10001 > 10000): use xlsx or csv',
      'data.format',
      'row limit',
    );
    expect((toConnectorReportError(pdf, 'members') as DomainError).message).toBe(
      'body.format: too many rows for pdf (10001 > 10000): use xlsx or csv',
    );
  });

  it('passes errors about no field unchanged', () => {
    const denied = forbidden('a worker may report only on itself');
    expect(toConnectorReportError(denied, 'members')).toBe(denied);
    const plain = new Error('x');
    expect(toConnectorReportError(plain, 'none')).toBe(plain);
  });
});
