import type { HookView } from '@app/webhooks';
import type { RouteExamplesDoc } from '../envelope/request-context';

/** Examples of `/v1/hooks` for the OpenAPI document (checked against the schemas by the openapi e2e spec). */
const ID = '01JDX6M5QH0B8Z7N3R2C4K1V9T';

const HOOK: HookView = {
  id: ID,
  event: 'jobcreated',
  url: 'https://hooks.example.com/catch/123',
  headers: { Authorization: '****e16a' },
  createdAt: 1767225600000,
};

export const LIST_HOOKS: RouteExamplesDoc = {
  answer: {
    'application/json': { data: { items: [HOOK, { ...HOOK, id: '01JDX6N0A4S7D2F9G1H3J5K8L0', event: 'job_checked', headers: {} }] } },
  },
};

export const CREATE_HOOK: RouteExamplesDoc = {
  body: { event: 'jobcreated', url: 'https://hooks.example.com/catch/123', headers: { Authorization: 'Bearer 8f14e45fceea167a' } },
  answer: { 'application/json': { data: { ...HOOK, secret: 'whsec_MfKQ9r8GKYqqjX5FwXQz8p0b6eWc2xY1s7Lh4Nd3Tgk=' } } },
};

export const DELETE_HOOK: RouteExamplesDoc = {
  path: { id: ID },
  answer: { 'application/json': { data: { id: ID, deleted: true } } },
};
