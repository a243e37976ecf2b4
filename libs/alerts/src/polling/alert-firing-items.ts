import type { StampedEventOf } from '@app/core';
import { ConnectorMemberRef, connectorMemberRef, ConnectorPlaceRef, connectorPlaceRef } from '@app/locations';
import type { AlertAction } from '../alert-actions';

/**
 * A `GET /v1/alert-firings` item (CONTRACTS.md "Wave 3: connector for automation platforms";
 * docs/connector.md, "Polling triggers"): one firing of an alert rule for a member, mapped from its
 * stamped `alerttriggered` event alone, so a polling route and a REST hook give the same item.
 * @example {"id": "msg_01JH3QAC4E6G8J0L2N4Q6S8U0W", "action": "leaves_zone", "rule": {"id": "01JH3P7K9M1P3R5T7V9X1Z3B5D", "title": "Left the depot"}, "member": {"id": "01JH3P0M8W4D2S6K9T1V3X5Z7Q", "username": "luka", "name": "Luka Novak"}, "zone": {"id": "01JH3P8M0P2R4T6V8X0Z2B4D6F", "name": "North depot"}, "message": "Luka Novak left zone North depot at 14:05", "ts": 1796047500000, "createdAt": 1796047501934}
 */
export interface AlertFiringItem {
  /** the event's id (`msg_…`) */
  id: string;
  /** the rule's action (docs/alerts.md) */
  action: AlertAction;
  /** the rule that fired, as it was then */
  rule: { id: string; title: string };
  member: ConnectorMemberRef;
  /** the rule's place (check and deadline rules), as it was then */
  place?: ConnectorPlaceRef;
  /** the zone (zone rules) */
  zone?: { id: string; name: string };
  /** the generated sentence */
  message: string;
  /** ms: when the condition occurred (the fix, check or deadline that fired it) */
  ts: number;
  /** ms: the event's commit-ordered stamp (what `createdSince` compares) */
  createdAt: number;
}

/**
 * The `GET /v1/alert-firings` item of an `alerttriggered` event — the one entry point for firing
 * items. An event written before payloads carried `ts` gives its stamp as `ts`.
 */
export function alertFiringItemForEvent(event: StampedEventOf<'alerttriggered'>): AlertFiringItem {
  const { alert, member, place, zone } = event.data;
  const ts = (event.data as { ts?: number }).ts;
  return {
    id: event.id,
    action: alert.action,
    rule: { id: alert.id, title: alert.title },
    member: connectorMemberRef(member),
    ...(place ? { place: connectorPlaceRef(place) } : {}),
    ...(zone ? { zone: { id: zone.id, name: zone.name } } : {}),
    message: alert.message,
    ts: typeof ts === 'number' ? ts : event.createdAt,
    createdAt: event.createdAt,
  };
}
