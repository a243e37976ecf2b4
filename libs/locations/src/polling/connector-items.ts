import type { StampedEventOf } from '@app/core';
import { ConnectorJob, toConnectorJob } from '@app/jobs';
import type { PlaceView } from '@app/places';
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

/**
 * A place as an item carries it: its fields when the event was written (a place edited or deleted
 * since keeps its old values here), named as the connector's places are.
 */
export interface ConnectorPlaceRef {
  id: string;
  name: string;
  address: string;
  city: string;
  state: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2, or "" */
  countryCode: string;
  phone: string;
  email: string;
  /** degrees (WGS 84); null when the place has no position */
  location: { lat: number; lng: number } | null;
  /** check-in radius, m; 0 = the company's default */
  radius: number;
  teams: number[];
}

/** The kinds of `GET /v1/checkins` items (its `kind` filter), which are the outbox actions they come from. */
export const CHECKIN_KINDS = ['placecheckin', 'placecheckout', 'jobcheckin', 'jobcheckout'] as const;
export type CheckinKind = (typeof CHECKIN_KINDS)[number];

/** The kinds of `GET /v1/clock-events` items, which are the outbox actions they come from. */
export const CLOCK_KINDS = ['clockin', 'clockout'] as const;
export type ClockKind = (typeof CLOCK_KINDS)[number];

/**
 * A place check-in or check-out (geofencing: the member entered or left the place).
 * @example {"id": "msg_01JH3Q7ZK0Y8R6V2N4T1C5B9XW", "kind": "placecheckin", "member": {"id": "01JH3P0M8W4D2S6K9T1V3X5Z7Q", "username": "luka", "name": "Luka Novak"}, "place": {"id": "01JH3P2C6E8G0J2L4N6Q8S0U2W", "name": "North depot", "address": "Tržaška 12", "city": "Ljubljana", "state": "", "postalCode": "1000", "countryCode": "SI", "phone": "", "email": "", "location": {"lat": 46.0511, "lng": 14.5051}, "radius": 100, "teams": []}, "ts": 1796040000000, "createdAt": 1796040000412}
 */
export interface PlaceCheckinItem {
  /** the event's id (`msg_…`) */
  id: string;
  kind: 'placecheckin' | 'placecheckout';
  member: ConnectorMemberRef;
  place: ConnectorPlaceRef;
  /** ms: the entry time (the first fix inside) or the exit time (the first fix beyond) */
  ts: number;
  /** ms: the event's commit-ordered stamp (what `createdSince` compares) */
  createdAt: number;
}

/**
 * A job check-in or check-out (geofencing at the job's destination, or `tsCheckIn`/`tsCheckOut` set
 * by a write).
 * @example {"id": "msg_01JH3Q8A2C4E6G8J0L2N4Q6S8U", "kind": "jobcheckout", "member": {"id": "01JH3P0M8W4D2S6K9T1V3X5Z7Q", "username": "luka", "name": "Luka Novak"}, "job": {"id": "01JH3P5F7H9K1M3P5R7T9V1X3Z", "externalId": "crm-4411", "title": "Boiler service", "address": "Celovška 100, Ljubljana", "notes": "", "date": "2026-11-23", "timeWindow": {"start": "09:00", "end": "11:00"}, "placeId": null, "priority": 0, "progress": "started", "archived": false, "createdAt": 1796030000000, "updatedAt": 1796040100000, "assignee": {"id": "01JH3P0M8W4D2S6K9T1V3X5Z7Q", "username": "luka", "email": "luka@example.test", "name": "Luka Novak"}, "contact": {"name": "", "phone": "", "email": ""}}, "ts": 1796040100000, "createdAt": 1796040100327}
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
 * @example {"id": "msg_01JH3Q9B3D5F7H9K1M3P5R7T9V", "kind": "clockin", "member": {"id": "01JH3P0M8W4D2S6K9T1V3X5Z7Q", "username": "luka", "name": "Luka Novak"}, "ts": 1796025600000, "location": {"lat": 46.0569, "lng": 14.5058}, "createdAt": 1796025601180}
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

/** A place view (the places lib's, as events carry it) as items carry places. */
export function connectorPlaceRef(p: PlaceView): ConnectorPlaceRef {
  return {
    id: p.uid,
    name: p.name,
    address: p.address,
    city: p.city,
    state: p.state,
    postalCode: p.postalcode,
    countryCode: p.country_code,
    phone: p.phone,
    email: p.email,
    location: p.location ? { lat: p.location.lat, lng: p.location.lng } : null,
    radius: p.radius,
    teams: [...p.teams],
  };
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
    place: connectorPlaceRef(event.data.place),
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
