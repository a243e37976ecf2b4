import { hookItem } from './hook-item';

/** The JSON body of a REST hook delivery (CONTRACTS.md "Wave 3: connector for automation platforms"). */
export interface HookBody {
  /** the outbox event id (`msg_…`): also the `webhook-id` header, the same for every retry and replay */
  id: string;
  /** the delivered action, e.g. `jobcreated` */
  action: string;
  /** ms: the event's creation time (database clock of its transaction), as the live stream's `ts` */
  ts: number;
  /** the item the matching connector polling route returns ({@link hookItem}) */
  data: unknown;
}

/**
 * The body of a REST hook delivery, as signed and sent: `{id, action, ts, data}` from the outbox
 * event's stored fields (the payload is the nine keys' form `data`, a JSON string; `stampedAt` the
 * event's commit-ordered stamp, ms, null or absent before stamping).
 */
export function hookBody(e: { eventId: string; action: string; ts: number; stampedAt?: number | null; payload: string }): string {
  let data: unknown;
  try {
    data = JSON.parse(e.payload);
  } catch {
    data = e.payload;
  }
  const body: HookBody = {
    id: e.eventId,
    action: e.action,
    ts: e.ts,
    data: hookItem({ id: e.eventId, action: e.action, ts: e.ts, stampedAt: e.stampedAt ?? null, data }),
  };
  return JSON.stringify(body);
}
