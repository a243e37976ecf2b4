import { maskHeaderValue } from '../header-rules';
import { SubscriptionRow } from './webhook-subscriptions.repository';

/** A REST hook as `/v1/hooks` answers it (header values masked: the last 4 characters shown). */
export interface HookView {
  id: string;
  /** as subscribed: an action or a webhook key */
  event: string;
  url: string;
  headers: Record<string, string>;
  /** ms */
  createdAt: number;
}

/** The answer's shape of a stored subscription. */
export function hookView(row: SubscriptionRow): HookView {
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    headers: Object.fromEntries(Object.entries(row.headers).map(([n, v]) => [n, maskHeaderValue(v)])),
    createdAt: row.createdAt,
  };
}
