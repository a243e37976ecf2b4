import type { RouteExamplesDoc } from '../envelope/request-context';

/**
 * `POST /v1/reports` for the OpenAPI document: a csv jobs report of one member over a week, three
 * columns, one renamed (csv lines end in CRLF, RFC 4180; the answer starts with the UTF-8 byte-order
 * mark unless `bom: false`). test/connector/connector-reports.e2e-spec.ts sends this body (its
 * member's username swapped in) and gets exactly this file.
 */
export const CREATE_REPORT: RouteExamplesDoc = {
  body: {
    type: 'jobs',
    format: 'csv',
    from: '2026-03-02',
    until: '2026-03-08',
    members: ['ana@example.com'],
    columns: [{ key: 'date' }, { key: 'title', rename: 'Job' }, { key: 'status' }],
    bom: false,
  },
  answer: {
    'text/csv; charset=utf-8': 'Date,Job,Status\r\n2026-03-02,Replace boiler valve,success\r\n2026-03-04,Annual inspection,scheduled\r\n',
  },
};
