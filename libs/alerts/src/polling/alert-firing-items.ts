import type { StampedEventOf } from '@app/core';
import { ConnectorMemberRef, connectorMemberRef } from '@app/locations';
import { ConnectorPlace, toConnectorPlace } from '@app/places';
import type { AlertAction } from '../alert-actions';

/**
 * A `GET /v1/alert-firings` item (CONTRACTS.md "Wave 3: connector for automation platforms";
 * docs/connector.md, "Polling triggers"): one firing of an alert rule for a member, mapped from its
 * stamped `alerttriggered` event alone, so a polling route and a REST hook give the same item.
 */
export interface AlertFiringItem {
  /** the event's id (`msg_…`) */
  id: string;
  /** the rule's action (docs/alerts.md) */
  action: AlertAction;
  /** the rule that fired, as it was then */
  rule: { id: string; title: string };
  member: ConnectorMemberRef;
  /** the rule's place (check and deadline rules) as `/v1/places` answers it, as it was then */
  place?: ConnectorPlace;
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
    ...(place ? { place: toConnectorPlace(place) } : {}),
    ...(zone ? { zone: { id: zone.id, name: zone.name } } : {}),
    message: alert.message,
    ts: typeof ts === 'number' ? ts : event.createdAt,
    createdAt: event.createdAt,
  };
}
