import { AuthContext, query, queryOne } from '@app/core';
import { mayViewMember, MemberRef, TeamConfig } from '@app/members';
import { Geocoder, PlaceAtService } from '@app/places';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { decodeLocateRow, LOC_SQL, LocateRawRow, LocationRecord, teamNames, toLocationRecord } from './location-record';

/**
 * A validated `locate` request (spec "Locate: POST /api/locate"). `accounts`: the keys of
 * `data.accounts` (uids or usernames); `teams`: the numbers of `data.teams` when it is an array,
 * `'all'` when it is sent as any other value, `undefined` when omitted.
 */
export interface LocateQuery {
  accounts: string[];
  teams: number[] | 'all' | undefined;
  withAddress: boolean;
  withDetails: boolean;
  ping: boolean;
}

/** The device columns read only for `withDetails` (fewer columns to parse for the common call). */
const DETAIL_COLUMNS = `,
              l.connection_type, l.android_id, l.loc_gps_on, l.loc_net_on, l.tracking_status, l.signal_ts::float8 AS signal_ts`;

/** Reverse-geocoder requests a single `locate` keeps in flight at once. */
const GEOCODER_CONCURRENCY = 8;
/** Distinct positions one `locate` asks the geocoder about at most; the others answer "". */
export const GEOCODER_MAX_PER_CALL = 200;
/** ms after which one `locate` starts no more geocoder requests (a slow geocoder can't hold the call). */
export const GEOCODER_BUDGET_MS = 3000;

/**
 * `locate`: the Location records of the selected members the caller may view (CONTRACTS.md
 * "Locations, devices, tracks"), with optional addresses and device details, and the `ping` signal.
 */
@Injectable()
export class LocateService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly placeAt: PlaceAtService,
    private readonly geocoder: Geocoder,
  ) {}

  /**
   * Selection (the spec's table): members named in `accounts` (uid or username, case-insensitive),
   * united with the members of `teams` (an array), or every member (`'all'`); each member once, in
   * creation order. Only active members of the caller's company; a worker gets itself and its
   * team-mates (`mayViewMember`); unknown or other-company keys select nothing. With `ping`, each
   * record's member gets a pending ping (`member_locations.ping_requested_at = now`).
   */
  async locate(ctx: AuthContext, q: LocateQuery): Promise<LocationRecord[]> {
    const all = q.teams === 'all';
    const teams = Array.isArray(q.teams) ? q.teams : [];
    if (!all && !q.accounts.length && !teams.length) return [];
    // the company's team names and the caller's teams, and the records: two queries in parallel
    const [head, rows] = await Promise.all([
      queryOne<{ teams_config: TeamConfig[]; actor_teams: number[] | null }>(
        this.dataSource,
        `SELECT c.teams_config, a.teams AS actor_teams FROM companies c
         LEFT JOIN members a ON a.id = $2 AND a.company_id = c.id
        WHERE c.id = $1`,
        [ctx.companyId, ctx.memberId],
      ),
      query<LocateRawRow>(
        this.dataSource,
        `SELECT m.id AS uid, m.username AS usr, m.name, m.email, m.phone, m.role, m.teams::text AS teams,
              ${LOC_SQL} AS loc${q.withDetails ? DETAIL_COLUMNS : ''}
         FROM members m
         LEFT JOIN member_locations l ON l.company_id = m.company_id AND l.member_id = m.id
        WHERE m.company_id = $1 AND m.active_status = 'active'
          AND ($2::boolean OR m.id = ANY($3::varchar[]) OR lower(m.username) = ANY($4::text[]) OR m.teams @> ANY($5::jsonb[]))
        ORDER BY m.created_at, m.id`,
        [ctx.companyId, all, q.accounts, q.accounts.map((k) => k.toLowerCase()), teams.map((t) => JSON.stringify([t]))],
      ),
    ]);
    if (!head) return [];
    const actor: MemberRef = { id: ctx.memberId, role: ctx.role, teams: head.actor_teams ?? [], isOwner: ctx.isOwner };
    const teamsCache = new Map<string, number[]>();
    const visible = rows
      .map((raw) => decodeLocateRow(raw, teamsCache))
      .filter((r) => mayViewMember(actor, { id: r.uid, role: r.role, teams: r.teams, isOwner: false }));
    const names = teamNames(head.teams_config);
    const records = visible.map((r) => toLocationRecord(r, names, q.withDetails));
    if (q.withAddress) await this.addAddresses(ctx.companyId, records);
    if (q.ping && records.length)
      await this.requestPing(
        ctx.companyId,
        records.map((r) => r.uid),
      );
    return records;
  }

  /**
   * Records a pending ping for each member (inserting its `member_locations` row when it has none);
   * ingestion answers it to the phone (`pushlocations` `ping: true`) and sets `signal_ts`.
   */
  async requestPing(companyId: string, memberIds: readonly string[], now: number = Date.now()): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO member_locations (company_id, member_id, ping_requested_at, updated_at)
       SELECT $1, id, $3, $3 FROM unnest($2::varchar[]) AS id
       ON CONFLICT (company_id, member_id) DO UPDATE SET ping_requested_at = EXCLUDED.ping_requested_at`,
      [companyId, memberIds, now],
    );
  }

  /**
   * `address` for each record: the place its fix is at (one query for all), else the reverse
   * geocoder's address (one request per distinct position, 8 at a time, at most
   * {@link GEOCODER_MAX_PER_CALL} positions and none started after {@link GEOCODER_BUDGET_MS}; none
   * configured → no request), else "". Members never located get "".
   */
  private async addAddresses(companyId: string, records: LocationRecord[]): Promise<void> {
    const located = records.filter((r) => r.lat !== null && r.lng !== null);
    for (const r of records) r.address = '';
    const places = await this.placeAt.nameAt(
      companyId,
      located.map((r) => ({ lat: r.lat!, lng: r.lng! })),
    );
    const unplaced: LocationRecord[] = [];
    located.forEach((r, i) => {
      if (places[i] !== null) r.address = places[i];
      else unplaced.push(r);
    });
    if (!unplaced.length || !this.geocoder.configured) return;
    const positions = [...new Set(unplaced.map((r) => `${r.lat},${r.lng}`))].slice(0, GEOCODER_MAX_PER_CALL);
    const found = new Map<string, string | null>();
    const deadline = Date.now() + GEOCODER_BUDGET_MS;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < positions.length && Date.now() < deadline) {
        const key = positions[next++];
        const [lat, lng] = key.split(',').map(Number);
        found.set(key, await this.geocoder.reverse({ lat, lng }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(GEOCODER_CONCURRENCY, positions.length) }, lane));
    for (const r of unplaced) r.address = found.get(`${r.lat},${r.lng}`) ?? '';
  }
}
