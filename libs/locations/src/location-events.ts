import type { PlaceView } from '@app/places';

/**
 * The locations lib's outbox events (spec "Events"; CONTRACTS.md, "Places, check-ins, clock"):
 * place check-ins and check-outs (geofencing) and clock-in/out (the reported tracking state), with
 * their payloads. Declared on core's `OutboxEvents` map by module augmentation, as every domain lib
 * declares its own (`job-events.ts` in the jobs lib).
 */

/** `who` of clock and place events, `member` of alert events: the member the event is about. */
export interface EventMember {
  uid: string;
  name: string;
  username: string;
}

/** A point in degrees (WGS 84). */
export interface EventLatLng {
  lat: number;
  lng: number;
}

/** `placecheckin` / `placecheckout` data: the place (the places lib's view), the member, and the entry or exit time. */
export interface PlaceCheckEventData {
  place: PlaceView;
  who: EventMember;
  /** ms: the entry time (the first fix inside) or the exit time (the first fix beyond) */
  ts: number;
}

/** `clockin` / `clockout` data: the member's reported tracking state changed. */
export interface ClockEventData {
  who: EventMember;
  /** true for clockin, false for clockout */
  tracking: boolean;
  /** ms: `tracking_ts`, else the receive time */
  ts: number;
  /** the newest fix of that call or the latest known within 10 min; absent when there is none */
  location?: EventLatLng;
}

declare module '@app/core' {
  interface OutboxEvents {
    /** form `id` `<member_uid>-<place_uid>-<ts>` */
    placecheckin: { key: 'place_checked'; id: `${string}-${string}-${number}`; data: PlaceCheckEventData };
    placecheckout: { key: 'place_checked'; id: `${string}-${string}-${number}`; data: PlaceCheckEventData };
    /** form `id` `<member_uid>-<ts>-<action>` */
    clockin: { key: 'clock_in_out'; id: `${string}-${number}-clockin`; data: ClockEventData };
    clockout: { key: 'clock_in_out'; id: `${string}-${number}-clockout`; data: ClockEventData };
  }
}
