import { movingState, query, Queryable } from '@app/core';
import type { MemberView } from '@app/members';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A member's `location` and `states` as the member answers carry them. */
export type MemberLocated = Pick<MemberView, 'location' | 'states'>;

/** A member with no `member_locations` row: never located, tracking never reported. */
export const NEVER_LOCATED: MemberLocated = { location: null, states: { moving: '', tracking_status: false } };

interface LocationRow {
  member_id: string;
  ts: number | null;
  lat: number | null;
  lng: number | null;
  acc: number | null;
  spd: number | null;
  anchor_ts: number | null;
  anchor_lat: number | null;
  anchor_lng: number | null;
  tracking_status: boolean;
}

/**
 * getaccounts' (and createaccount's, editaccount's) `location` and `states` for the given members, in
 * one query, keyed by member id; members without a row are left out (use {@link NEVER_LOCATED}).
 *
 * The read model of `member_locations` (this lib's table) for other domains' answers: members can't
 * import this lib (it depends on members), so the api attaches these fields to the member views
 * ({@link MemberLocationsReader.attach}); dispatch reads a member's latest position here. This reads
 * only the latest fix, the `anchor_*` fix and `tracking_status`, and derives `states.moving` with
 * core's `movingState` — the same function `locate` uses (docs/locate.md). bigint columns are cast to
 * float8 so `pg` answers numbers.
 *
 * `location` is `{lat, lng, ts (ms), accuracy (m, null = unknown)}`, null while never located.
 */
export async function readMemberLocations(
  db: Queryable,
  companyId: string,
  memberIds: readonly string[],
  now: number = Date.now(),
): Promise<Map<string, MemberLocated>> {
  const out = new Map<string, MemberLocated>();
  if (!memberIds.length) return out;
  const rows = await query<LocationRow>(
    db,
    `SELECT member_id, ts::float8 AS ts, lat, lng, acc, spd, anchor_ts::float8 AS anchor_ts, anchor_lat, anchor_lng, tracking_status
       FROM member_locations WHERE company_id = $1 AND member_id = ANY($2::varchar[])`,
    [companyId, memberIds],
  );
  for (const r of rows) out.set(r.member_id, toMemberLocated(r, now));
  return out;
}

/** One `member_locations` row → `location` and `states` at `now` (ms). */
export function toMemberLocated(r: Omit<LocationRow, 'member_id'>, now: number): MemberLocated {
  const latest = r.ts !== null && r.lat !== null && r.lng !== null ? { ts: r.ts, lat: r.lat, lng: r.lng, spd: r.spd } : null;
  const anchor =
    r.anchor_ts !== null && r.anchor_lat !== null && r.anchor_lng !== null
      ? { ts: r.anchor_ts, lat: r.anchor_lat, lng: r.anchor_lng }
      : null;
  return {
    location: latest ? { lat: latest.lat, lng: latest.lng, ts: latest.ts, accuracy: r.acc } : null,
    states: { moving: movingState(latest, anchor, r.tracking_status, now), tracking_status: r.tracking_status },
  };
}

/**
 * The member answers' `location` and `states` (getaccounts, createaccount, editaccount): the api
 * gets the views from `MembersService` — which answers them never located, as members may not read
 * `member_locations` — and attaches both fields here, one query per answer ({@link readMemberLocations}).
 */
@Injectable()
export class MemberLocationsReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Sets `location` and `states` of each view in place (keeping the answer's key order) from the
   * company's `member_locations`; a member without a row gets {@link NEVER_LOCATED}.
   * @returns `views`
   */
  async attach<T extends MemberLocated & { uid: string }>(companyId: string, views: T[]): Promise<T[]> {
    const located = await readMemberLocations(
      this.dataSource,
      companyId,
      views.map((v) => v.uid),
    );
    for (const v of views) {
      const l = located.get(v.uid) ?? NEVER_LOCATED;
      v.location = l.location;
      v.states = l.states;
    }
    return views;
  }

  /** {@link attach} for one view (or none: `null` stays `null`, without a query). */
  async attachOne<T extends (MemberLocated & { uid: string }) | null>(companyId: string, view: T): Promise<T> {
    if (view) await this.attach(companyId, [view]);
    return view;
  }
}
