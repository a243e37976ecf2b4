import type { TeamConfig } from '@app/members';
import { LocateRow, LocationRecord, teamNames, toLocationRecord } from './location-view';

/**
 * One member as the refresh statement answers it (a JSON object of its `rows` array): the locate row
 * with every device column (null without a `member_locations` row; units as {@link LocateRow}) and
 * what selection and order need.
 */
export type SnapshotRow = LocateRow & {
  /** `active_status = 'active'` */
  active: boolean;
  /** ms, `members.created_at`: the answer's order (then `uid`) */
  created: number;
  /** the member has a `member_locations` row (counted against the table's rows) */
  has_location: boolean;
  /** `members.xmin` of the row version read (32-bit xid, decimal text) */
  mx: string;
  /** `member_locations.xmin` of the row version read; null without a row */
  lx: string | null;
};

/** The row versions a snapshot holds that a refresh would read again (see {@link CompanySnapshot.recentVersions}). */
export interface HeldVersions {
  ids: string[];
  /** `members.xmin` of each, 32-bit decimal text */
  mx: string[];
  /** `member_locations.xmin` of each ('' without a row) */
  lx: string[];
}

/** A member as a {@link CompanySnapshot} holds it. */
export interface SnapshotMember {
  /** the locate row, device columns included */
  readonly row: LocateRow;
  readonly usernameLower: string;
  readonly active: boolean;
  readonly created: number;
  readonly hasLocation: boolean;
  /** the row versions read: `members.xmin` and `member_locations.xmin` (null without a row), 32-bit decimal text */
  readonly mx: string;
  readonly lx: string | null;
  /** the plain record's JSON (no address, no details), rendered on first use and kept */
  json?: string;
}

/** What the database counts for a company when a refresh reads it. */
export interface SnapshotCounts {
  /** rows of `members` of the company */
  members: number;
  /** rows of `member_locations` of the company */
  locations: number;
}

const toMember = ({ active, created, has_location, mx, lx, ...row }: SnapshotRow): SnapshotMember => ({
  row,
  usernameLower: row.usr.toLowerCase(),
  active,
  created,
  hasLocation: has_location,
  mx,
  lx,
});

const TWO_31 = 2 ** 31;
/**
 * Whether the 32-bit xid `xid` is not older than `horizon` (32-bit), as `age(xid) <= age(horizon)`
 * compares them in PostgreSQL (modulo-2^32 arithmetic, right within 2^31). PostgreSQL's special xids
 * (0–2: invalid, bootstrap, frozen) are older than every normal one.
 */
export function xidNotOlder(xid: number, horizon: number): boolean {
  if (xid < 3) return false;
  return (xid - horizon + 4294967296) % 4294967296 < TWO_31;
}

/** The answer's order: creation time, then uid (as getaccounts and the SQL it replaces: ids are ULIDs, ASCII). */
const byCreation = (a: SnapshotMember, b: SnapshotMember) =>
  a.created - b.created || (a.row.uid < b.row.uid ? -1 : a.row.uid > b.row.uid ? 1 : 0);

/**
 * Every member of one company (active or not) with its latest location, as of one database
 * snapshot, kept in memory by `LocateSnapshots` (docs/locate.md, *The snapshot*) and brought up to
 * date by applying the rows changed since. Pure data: no I/O.
 *
 * `horizon` is the PostgreSQL snapshot's `xmin` (`pg_snapshot_xmin`, xid8 as decimal text) at the
 * last read: every row version committed after that read has an `xmin` not older than it.
 */
export class CompanySnapshot {
  readonly byId = new Map<string, SnapshotMember>();
  /** lower-cased username → member (usernames are unique case-insensitively) */
  readonly byUsername = new Map<string, SnapshotMember>();
  /** every member in the answer's order: created_at, then uid */
  ordered: SnapshotMember[] = [];
  /** members holding a `member_locations` row */
  locationRows = 0;
  /**
   * `member_locations` rows of the company counted at the whole read beyond its members' (rows of a
   * member that no longer exists: none are made today, but a count must not be thrown off by one)
   */
  private orphanLocations = 0;
  private teamsConfigText = '';
  private names: ReadonlyMap<number, string> = new Map();

  /**
   * @param horizon xid8 (decimal text) of the read that filled it
   * @param loadedAt ms, when it was read whole (a full reload starts a new snapshot)
   */
  constructor(
    public horizon: string,
    readonly loadedAt: number,
  ) {}

  /** Members held (active or not). */
  get size(): number {
    return this.byId.size;
  }

  /**
   * Applies rows read after the last horizon (each the member's current state) and moves the
   * horizon; re-sorts only when a member is new or its creation time moved.
   */
  apply(rows: readonly SnapshotRow[], horizon: string): void {
    let reorder = false;
    let replaced = false;
    for (const r of rows) {
      const next = toMember(r);
      const prev = this.byId.get(r.uid);
      if (prev) {
        if (prev.usernameLower !== next.usernameLower && this.byUsername.get(prev.usernameLower) === prev)
          this.byUsername.delete(prev.usernameLower);
        if (prev.hasLocation) this.locationRows--;
        if (prev.created !== next.created) reorder = true;
        replaced = true;
      } else reorder = true;
      this.byId.set(r.uid, next);
      this.byUsername.set(next.usernameLower, next);
      if (next.hasLocation) this.locationRows++;
    }
    if (reorder) this.ordered = [...this.byId.values()].sort(byCreation);
    else if (replaced) this.ordered = this.ordered.map((m) => this.byId.get(m.row.uid)!);
    this.horizon = horizon;
  }

  /**
   * The members whose `members` or `member_locations` row version is not older than `horizon32`
   * (the horizon the next refresh passes, 32-bit): the versions that refresh would read again, though
   * the snapshot holds them (a transaction in progress at the last read keeps the horizon back). The
   * refresh leaves out a row whose (member, xmin) is listed: the same committed version.
   */
  recentVersions(horizon32: string): HeldVersions {
    const h = Number(horizon32);
    const out: HeldVersions = { ids: [], mx: [], lx: [] };
    for (const m of this.byId.values()) {
      if (!xidNotOlder(Number(m.mx), h) && !(m.lx !== null && xidNotOlder(Number(m.lx), h))) continue;
      out.ids.push(m.row.uid);
      out.mx.push(m.mx);
      out.lx.push(m.lx ?? '');
    }
    return out;
  }

  /** Takes the company's `teams_config` (its JSON text); a change drops every rendered record (they hold team names). */
  setTeams(teamsConfigText: string): void {
    if (teamsConfigText === this.teamsConfigText) return;
    this.teamsConfigText = teamsConfigText;
    this.names = teamNames(JSON.parse(teamsConfigText) as TeamConfig[]);
    for (const m of this.byId.values()) m.json = undefined;
  }

  /** Takes the counts of the whole read that filled it (rows of no member are then known). */
  countsRead(counts: SnapshotCounts): void {
    this.orphanLocations = counts.locations - this.locationRows;
  }

  /** Whether what it holds has the database's counts (a deleted row shows only as a count that moved). */
  matches(counts: SnapshotCounts): boolean {
    return this.byId.size === counts.members && this.locationRows + this.orphanLocations === counts.locations;
  }

  /** The member's Location record (a new object: the caller may add `address`). */
  record(m: SnapshotMember, withDetails: boolean): LocationRecord {
    return toLocationRecord(m.row, this.names, withDetails);
  }

  /** The member's plain Location record (no address, no details) as JSON, rendered once per change of the member or of the team names. */
  json(m: SnapshotMember): string {
    return (m.json ??= JSON.stringify(toLocationRecord(m.row, this.names, false)));
  }
}
