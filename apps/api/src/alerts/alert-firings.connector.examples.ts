import type { AlertFiringItem } from '@app/alerts';
import type { RouteExamplesDoc } from '../envelope/request-context';

/** Examples of `/v1/alert-firings` for the OpenAPI document (checked against the schemas by the openapi e2e spec). */
const FIRING: AlertFiringItem = {
  id: 'msg_01JH3QAC4E6G8J0L2N4Q6S8U0W',
  action: 'leaves_zone',
  rule: { id: '01JH3P7K9M1P3R5T7V9X1Z3B5D', title: 'Left the depot' },
  member: { id: '01JH3P0M8W4D2S6K9T1V3X5Z7Q', username: 'luka@example.com', name: 'Luka Novak' },
  zone: { id: '01JH3P8M0P2R4T6V8X0Z2B4D6F', name: 'North depot' },
  message: 'Luka Novak left zone North depot at 14:05',
  ts: 1767272700000,
  createdAt: 1767272701934,
};

export const LIST_ALERT_FIRINGS: RouteExamplesDoc = {
  query: { createdSince: 1767225600000, limit: 100 },
  answer: { 'application/json': { data: { items: [FIRING] } } },
};
