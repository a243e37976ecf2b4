import { AuthContext, jsonTextsUtf8 } from '@app/core';
import { MemberRef } from '@app/members';
import { Geocoder, PlaceAtService } from '@app/places';
import { Injectable } from '@nestjs/common';
import { CompanySnapshot, SnapshotMember } from './company-snapshot';
import { LocateSelection, selectMembers } from './locate-selection';
import { LocateRepository } from './locate.repository';
import { LocateSnapshots } from './locate-snapshots.service';
import { LocationRecord } from './location-view';

/**
 * A validated `locate` request (spec "Locate: POST /api/locate"). `accounts`: the keys of
 * `data.accounts` (uids or usernames); `teams`: the numbers of `data.teams` when it is an array,
 * `'all'` when it is sent as any other value, `undefined` when omitted.
 */
export interface LocateQuery extends LocateSelection {
  accounts: string[];
  teams: number[] | 'all' | undefined;
  withAddress: boolean;
  withDetails: boolean;
  ping: boolean;
}

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
    private readonly repo: LocateRepository,
    private readonly snapshots: LocateSnapshots,
    private readonly placeAt: PlaceAtService,
    private readonly geocoder: Geocoder,
  ) {}

  /**
   * Selection (the spec's table; {@link selectMembers}): members named in `accounts` (uid or
   * username, case-insensitive), united with the members of `teams` (an array), or every member
   * (`'all'`); each member once, in creation order. Only active members of the caller's company; a
   * worker gets itself and its team-mates (`mayViewMember`); unknown or other-company keys select
   * nothing. With `ping`, each record's member gets a pending ping
   * (`member_locations.ping_requested_at = now`). Read from the company's snapshot
   * ({@link LocateSnapshots}), which holds every write committed before the call.
   * @returns the Location records (new objects)
   */
  async locate(ctx: AuthContext, q: LocateQuery): Promise<LocationRecord[]> {
    const selected = await this.select(ctx, q);
    if (!selected) return [];
    const { snapshot, members } = selected;
    const records = members.map((m) => snapshot.record(m, q.withDetails));
    if (q.withAddress) await this.addAddresses(ctx.companyId, records);
    await this.pingIf(ctx, q, members);
    return records;
  }

  /**
   * {@link locate}'s records as the UTF-8 bytes of `open + <the records' JSON array> + close` (the
   * controller's answer around them). Without `withAddress` and `withDetails` (the dashboard's poll)
   * it writes each member's record JSON kept by the snapshot, rendered once per change of the member,
   * straight into the answer's buffer ({@link jsonTextsUtf8}) — no record is built or serialized per
   * call, and no joined text of the whole answer is made.
   */
  async locateUtf8(ctx: AuthContext, q: LocateQuery, open: string, close: string): Promise<Buffer> {
    if (q.withAddress || q.withDetails) return Buffer.from(`${open}${JSON.stringify(await this.locate(ctx, q))}${close}`);
    const selected = await this.select(ctx, q);
    if (!selected) return Buffer.from(`${open}[]${close}`);
    const { snapshot, members } = selected;
    const bytes = jsonTextsUtf8(
      `${open}[`,
      members.map((m) => snapshot.json(m)),
      `]${close}`,
    );
    await this.pingIf(ctx, q, members);
    return bytes;
  }

  /** The selected members and the snapshot they come from; null when nothing can be selected. */
  private async select(ctx: AuthContext, q: LocateQuery): Promise<{ snapshot: CompanySnapshot; members: SnapshotMember[] } | null> {
    if (q.teams !== 'all' && !q.accounts.length && !(Array.isArray(q.teams) && q.teams.length)) return null;
    const snapshot = await this.snapshots.current(ctx.companyId);
    if (!snapshot) return null;
    const actor: MemberRef = { id: ctx.memberId, role: ctx.role, teams: snapshot.byId.get(ctx.memberId)?.row.teams ?? [], isOwner: ctx.isOwner };
    return { snapshot, members: selectMembers(snapshot, q, actor) };
  }

  private async pingIf(ctx: AuthContext, q: LocateQuery, members: readonly SnapshotMember[]): Promise<void> {
    if (q.ping && members.length)
      await this.requestPing(
        ctx.companyId,
        members.map((m) => m.row.uid),
      );
  }

  /**
   * Records a pending ping for each member (inserting its `member_locations` row when it has none);
   * ingestion answers it to the phone (`pushlocations` `ping: true`) and sets `signal_ts`.
   */
  requestPing(companyId: string, memberIds: readonly string[], now: number = Date.now()): Promise<void> {
    return this.repo.requestPing(companyId, memberIds, now);
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
