import type { StampedEventOf } from '@app/core';
import { ConnectorJob, toConnectorJob } from '@app/jobs';
import { ConnectorPlace, toConnectorPlace } from '@app/places';
import type { EventMember } from '../location-events';

/**
 * The connector's polling items for check-ins and clock events (CONTRACTS.md "Wave 3: connector for
 * automation platforms"; docs/connector.md, "Polling triggers"): each a pure mapping of one stamped
 * outbox event, so a polling route and a REST hook (which sends the item as its `data`) give the same
 * item for the same event. The item's `id` is the event's own (`msg_…`): a check-out never shares the
 * id of its check-in, nor a job check of its job's.
 */

/** The member an item is about, as the connector names members. */
export interface ConnectorMemberRef {
  id: string;
  username: string;
  name: string;
}

/** The kinds of `GET /v1/checkins` items (its `kind` filter), which are the outbox actions they come from. */
export const CHECKIN_KINDS = ['placecheckin', 'placecheckout', 'jobcheckin', 'jobcheckout'] as const;
export type CheckinKind = (typeof CHECKIN_KINDS)[number];

/** The kinds of `GET /v1/clock-events` items, which are the outbox actions they come from. */
export const CLOCK_KINDS = ['clockin', 'clockout'] as const;
export type ClockKind = (typeof CLOCK_KINDS)[number];

/**
 * A place check-in or check-out (geofencing: the member entered or left the place).
 */
export interface PlaceCheckinItem {
  /** the event's id (`msg_…`) */
  id: string;
  kind: 'placecheckin' | 'placecheckout';
  member: ConnectorMemberRef;
  /** the place as `/v1/places` answers it, as it was when the event was written (a place edited or deleted since keeps its old values here) */
  place: ConnectorPlace;
  /** ms: the entry time (the first fix inside) or the exit time (the first fix beyond) */
  ts: number;
  /** ms: the event's commit-ordered stamp (what `createdSince` compares) */
  createdAt: number;
}

/**
 * A job check-in or check-out (geofencing at the job's destination, or `tsCheckIn`/`tsCheckOut` set
 * by a write).
 */
export interface JobCheckinItem {
  /** the event's id (`msg_…`), never the job's */
  id: string;
  kind: 'jobcheckin' | 'jobcheckout';
  /** the job's assignee after the change; null for an unassigned job */
  member: ConnectorMemberRef | null;
  /** the job as `/v1/jobs` answers it, as it was right after the check */
  job: ConnectorJob;
  /** ms: the job's `tsCheckIn` (check-in) or `tsCheckOut` (check-out) */
  ts: number;
  /** ms: the event's commit-ordered stamp (what `createdSince` compares) */
  createdAt: number;
}

/** A `GET /v1/checkins` item. */
export type CheckinItem = PlaceCheckinItem | JobCheckinItem;

/**
 * A `GET /v1/clock-events` item: the member turned tracking on (clockin) or off (clockout) in the app.
 */
export interface ClockEventItem {
  /** the event's id (`msg_…`) */
  id: string;
  kind: ClockKind;
  member: ConnectorMemberRef;
  /** ms: the phone's tracking time, else the receive time */
  ts: number;
  /** where (degrees): the newest fix of that call or the latest known within 10 min; null when none */
  location: { lat: number; lng: number } | null;
  /** ms: the event's commit-ordered stamp (what `createdSince` compares) */
  createdAt: number;
}

/** An event's `who`/`member` as the connector names members. */
export function connectorMemberRef(who: EventMember): ConnectorMemberRef {
  return { id: who.uid, username: who.username, name: who.name };
}

/**
 * The `GET /v1/checkins` item of a `placecheckin`, `placecheckout`, `jobcheckin` or `jobcheckout`
 * event — the one entry point for check-in items (the polling route, REST hooks).
 */
export function checkinItemForEvent(event: StampedEventOf<CheckinKind>): CheckinItem {
  if (event.action === 'jobcheckin' || event.action === 'jobcheckout') {
    const [view] = event.data;
    return {
      id: event.id,
      kind: event.action,
      member: view.receiverUid ? { id: view.receiverUid, username: view.assigneeUsername || view.worker, name: view.workerName } : null,
      job: toConnectorJob(view),
      ts: event.action === 'jobcheckin' ? view.tsCheckIn : view.tsCheckOut,
      createdAt: event.createdAt,
    };
  }
  return {
    id: event.id,
    kind: event.action,
    member: connectorMemberRef(event.data.who),
    place: toConnectorPlace(event.data.place),
    ts: event.data.ts,
    createdAt: event.createdAt,
  };
}

/** The `GET /v1/clock-events` item of a `clockin` or `clockout` event — the one entry point for clock items. */
export function clockEventItemForEvent(event: StampedEventOf<ClockKind>): ClockEventItem {
  const { who, ts, location } = event.data;
  return {
    id: event.id,
    kind: event.action,
    member: connectorMemberRef(who),
    ts,
    location: location ? { lat: location.lat, lng: location.lng } : null,
    createdAt: event.createdAt,
  };
}
