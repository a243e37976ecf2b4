import type { RouteExamplesDoc } from '../envelope/request-context';

/**
 * `POST /v1/reports` for the OpenAPI document: a csv jobs report of one member over a week, three
 * columns, one renamed (the answer starts with the UTF-8 byte-order mark unless `bom: false`). The
 * reports e2e spec sends this body and checks the header row.
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
    'text/csv; charset=utf-8': 'Date,Job,Status\n03/02/2026,Replace boiler valve,success\n03/04/2026,Annual inspection,scheduled\n',
  },
};
