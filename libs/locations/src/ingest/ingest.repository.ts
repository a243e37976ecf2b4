import { preparedQuery, query, queryOne, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Fix } from '../fix';
import { LocationSource } from '../entities/member-location.entity';
import { IngestItem, ingestParams } from './ingest-params';
import { ANCHOR_MIN_AGE_MS } from './latest-location';

/**
 * Ingestion's SQL (`location_fixes`, `member_locations`, `clock_events`).
 *
 * The statement of ingestion calls without a tracking report (most `pushlocations` calls, every
 * `/osmand` request): for each of its items (one call: a member, its fixes, its receive time) the
 * fixes, the latest location with its anchor, Traccar's tracking flag, device details and ping
 * delivery — in ONE statement, so one round trip and one implicit transaction for all its items.
 * One item is one call (`pushlocations`); several are the group commit of concurrent `/osmand`
 * requests (docs/locations-ingest.md, *Group commit*). Each item's member comes from the CTE `m`:
 * the given company and member, or (for `/osmand`) the active member holding the item's device id,
 * so the device lookup costs no round trip of its own either.
 *
 * A statement may hold each member at most once: `INSERT … ON CONFLICT DO UPDATE` cannot affect a
 * row twice in one command (PostgreSQL raises `21000`). Callers put a member's further calls in a
 * later statement. The rows of `member_locations` are upserted in (company, member) order, so two
 * statements over overlapping members take their row locks in one order (no deadlock between them).
 *
 * Parameters ({@link ingestParams} builds them), one array entry per item: $1 company id (null for
 * a device lookup), $2 member id (or the device id), $3 now (ms), $4…$11 the newest of the item's
 * fixes (ts, lat, lng, acc, dir, spd, elv, bat; null when none), $12 source, $13…$15 the anchor when
 * the row is new ({@link advanceLatest} from nothing), $16 set tracking on (Traccar Client with a
 * fix), $17…$20 device details (null = unchanged), $21 deliver a pending ping. One entry per fix of
 * all items, deduplicated per item: $22 its item (1-based), $23…$30 ts, lat, lng, acc, dir, spd, elv, bat.
 * $31 the number of items and $32 of fixes, as the LIMITs of their `unnest`s — no-ops that set the
 * generic plan's estimates (see *Plans* in docs/locations-ingest.md): PostgreSQL estimates an unnested
 * parameter at 10 rows and a LIMIT by a parameter at a tenth of its input, so the generic plan is
 * costed for one item, at most what any custom plan costs; without them the generic plan (costed for
 * 10 items) never beat the custom ones (`plan_cache_mode = auto`), and every execution was planned
 * anew: 0.80 ms a one-item statement against 0.35 ms on the generic plan.
 *
 * The anchor when the row exists mirrors {@link advanceLatest}: the newest of the stored anchor, the
 * stored latest and the item's fixes newer than it, at least 2 min older than the new latest; rows are
 * read as locked by ON CONFLICT, so concurrent calls of one member never move the latest backwards.
 * An item's `ping` is read from the statement's snapshot.
 *
 * An item that stored a fix older than the stored latest (`ins` holds only the fixes actually stored,
 * so a retried batch counts nothing) adds one to `late_fix_count`, under the same row lock that keeps
 * `ts` only ever forward: a fix stored after any fix it is older than is always counted, which is what
 * lets the track builder skip re-counting the open track (docs/tracks.md "Appending").
 */
/** The items, numbered `i` from 1 in parameter order. */
const ITEMS = `SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[],
    $4::bigint[], $5::float8[], $6::float8[], $7::int[], $8::int[], $9::float8[], $10::int[], $11::int[], $12::varchar[],
    $13::bigint[], $14::float8[], $15::float8[], $16::boolean[], $17::int[], $18::varchar[], $19::boolean[], $20::boolean[], $21::boolean[])
  WITH ORDINALITY AS it(company_id, member, now, ts, lat, lng, acc, dir, spd, elv, bat, source,
    anchor_ts, anchor_lat, anchor_lng, tracking, connection_type, android_id, loc_gps_on, loc_net_on, ping, i)
  LIMIT $31::int`;
/** Each item with its member (`cid`, `mid`): as given. */
const MEMBER_GIVEN = `SELECT it.*, it.company_id AS cid, it.member AS mid FROM it`;
/**
 * Each item with its member (`cid`, `mid`): the active member holding the device id; none → the item
 * has no row in `m`. The device id is found in the global lookup table `member_device_ids`
 * (lower(device_id) → company_id, member_id; its primary key), then the member by `(company_id, id)`.
 * A LATERAL lookup (LIMIT 1: the key is unique) so each item is one probe of each primary key
 * whatever the planner estimates of the unnested items: with a plain join and a custom plan for 64
 * items it chose a sequential scan of `members` and a hash join.
 */
// eslint-disable-next-line fieldwork/sql-owners -- the device lookup reads `member_device_ids` and `members` (the members lib's) inside the /osmand group-commit statement: a separate read would cost each request a round trip (docs/locations-ingest.md, *Group commit*)
const MEMBER_OF_DEVICE = `SELECT it.*, mb.company_id AS cid, mb.id AS mid FROM it
  CROSS JOIN LATERAL (SELECT mm.company_id, mm.id FROM member_device_ids d JOIN members mm ON mm.company_id = d.company_id AND mm.id = d.member_id
    WHERE d.device_id = lower(it.member) AND mm.active_status = 'active' LIMIT 1) mb`;

/** The row's latest moves to the item's newest fix (the proposed row, `EXCLUDED`). */
const ADVANCES = `(EXCLUDED.ts IS NOT NULL AND EXCLUDED.ts > COALESCE(member_locations.ts, -1))`;
const latestColumn = (column: string) => `${column} = CASE WHEN ${ADVANCES} THEN EXCLUDED.${column} ELSE member_locations.${column} END`;
/** The item of the row being updated (one per member in a statement). */
const ITEM_OF_ROW = `m.cid = EXCLUDED.company_id AND m.mid = EXCLUDED.member_id`;

function statement(member: string): string {
  return `WITH it AS (${ITEMS}),
m AS (${member}),
f AS (
  SELECT * FROM unnest($22::int[], $23::bigint[], $24::float8[], $25::float8[], $26::int[], $27::int[], $28::float8[], $29::int[], $30::int[])
    AS f(i, ts, lat, lng, acc, dir, spd, elv, bat)
  LIMIT $32::int),
old AS MATERIALIZED (
  SELECT m.i, l.ping_requested_at FROM m
    CROSS JOIN LATERAL (SELECT ping_requested_at FROM member_locations WHERE company_id = m.cid AND member_id = m.mid LIMIT 1) l),
ins AS (
  INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, received_at)
  SELECT m.cid, m.mid, f.ts, f.lat, f.lng, f.acc, f.dir, f.spd, f.elv, f.bat, m.now
    FROM f JOIN m ON m.i = f.i
  ON CONFLICT DO NOTHING
  RETURNING company_id, member_id, ts),
got AS (
  SELECT company_id, member_id, count(*)::int AS n, min(ts) AS lo, max(ts) AS hi FROM ins GROUP BY company_id, member_id),
up AS (
  INSERT INTO member_locations (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, source, received_at,
      anchor_ts, anchor_lat, anchor_lng, tracking_status, tracking_ts, connection_type, android_id, loc_gps_on, loc_net_on,
      ping_requested_at, signal_ts, updated_at)
  SELECT m.cid, m.mid, m.ts, m.lat, m.lng, m.acc, m.dir, m.spd, m.elv, m.bat,
      CASE WHEN m.ts IS NULL THEN NULL ELSE m.source END, CASE WHEN m.ts IS NULL THEN NULL ELSE m.now END,
      m.anchor_ts, m.anchor_lat, m.anchor_lng, m.tracking, 0, m.connection_type, m.android_id, m.loc_gps_on, m.loc_net_on, NULL, 0, m.now
    FROM m ORDER BY m.cid, m.mid
  ON CONFLICT (company_id, member_id) DO UPDATE SET
    ${latestColumn('ts')}, ${latestColumn('lat')}, ${latestColumn('lng')}, ${latestColumn('acc')}, ${latestColumn('dir')},
    ${latestColumn('spd')}, ${latestColumn('elv')}, ${latestColumn('bat')}, ${latestColumn('source')}, ${latestColumn('received_at')},
    (anchor_ts, anchor_lat, anchor_lng) = (
      SELECT c.ts, c.lat, c.lng FROM (
        SELECT member_locations.anchor_ts, member_locations.anchor_lat, member_locations.anchor_lng
        UNION ALL
        SELECT member_locations.ts, member_locations.lat, member_locations.lng
         WHERE ${ADVANCES} AND member_locations.ts <= EXCLUDED.ts - ${ANCHOR_MIN_AGE_MS}
        UNION ALL
        (SELECT f.ts, f.lat, f.lng FROM f JOIN m ON m.i = f.i
          WHERE ${ITEM_OF_ROW} AND ${ADVANCES} AND f.ts > COALESCE(member_locations.ts, -1) AND f.ts <= EXCLUDED.ts - ${ANCHOR_MIN_AGE_MS}
          ORDER BY f.ts DESC LIMIT 1)
      ) AS c(ts, lat, lng) WHERE c.ts IS NOT NULL ORDER BY c.ts DESC LIMIT 1),
    tracking_status = member_locations.tracking_status OR EXCLUDED.tracking_status,
    connection_type = COALESCE(EXCLUDED.connection_type, member_locations.connection_type),
    android_id = COALESCE(EXCLUDED.android_id, member_locations.android_id),
    loc_gps_on = COALESCE(EXCLUDED.loc_gps_on, member_locations.loc_gps_on),
    loc_net_on = COALESCE(EXCLUDED.loc_net_on, member_locations.loc_net_on),
    (ping_requested_at, signal_ts) = (
      SELECT CASE WHEN m.ping THEN NULL ELSE member_locations.ping_requested_at END,
        CASE WHEN m.ping AND member_locations.ping_requested_at IS NOT NULL THEN m.now ELSE member_locations.signal_ts END
      FROM m WHERE ${ITEM_OF_ROW}),
    late_fix_count = member_locations.late_fix_count + CASE WHEN (
      SELECT g.lo FROM got g WHERE g.company_id = EXCLUDED.company_id AND g.member_id = EXCLUDED.member_id) < member_locations.ts THEN 1 ELSE 0 END,
    updated_at = EXCLUDED.updated_at
  RETURNING 1)
SELECT m.cid AS company_id, m.mid AS member_id, COALESCE(g.n, 0) AS n, g.lo::float8 AS lo, g.hi::float8 AS hi,
  COALESCE(it.ping AND old.ping_requested_at IS NOT NULL, false) AS ping
FROM it LEFT JOIN m ON m.i = it.i LEFT JOIN got g ON g.company_id = m.cid AND g.member_id = m.mid LEFT JOIN old ON old.i = it.i
ORDER BY it.i`;
}

/** The statement for given members (item: company, member). */
export const INGEST_MEMBER_SQL = statement(MEMBER_GIVEN);
/** The statement for the members holding device ids (item: null, device id; no member → the unknown device's row has member null). */
export const INGEST_DEVICE_SQL = statement(MEMBER_OF_DEVICE);

/** What the statement answers per item, in item order (member null: no active member holds the device id). */
export interface IngestRow {
  company_id: string | null;
  member_id: string | null;
  /** fixes newly stored */
  n: number;
  /** ms, the oldest and newest newly stored fix (null when none) */
  lo: number | null;
  hi: number | null;
  /** a pending ping is delivered by this answer */
  ping: boolean;
}

/** The member's stored row as {@link IngestRepository.lockRow} answers it (bigints as ms numbers). */
export interface StoredLocationRow {
  ts: number | null;
  lat: number | null;
  lng: number | null;
  acc: number | null;
  dir: number | null;
  spd: number | null;
  elv: number | null;
  bat: number | null;
  anchor_ts: number | null;
  anchor_lat: number | null;
  anchor_lng: number | null;
  tracking_status: boolean;
  tracking_ts: number;
  ping_requested_at: number | null;
}

/** What {@link IngestRepository.insertFixes} stored: how many, and the oldest and newest `ts` (ms; null when none). */
export interface InsertedFixes {
  n: number;
  lo: number | null;
  hi: number | null;
}

/**
 * A `member_locations` row as the tracking transaction writes it ({@link IngestRepository.updateRow}):
 * the latest fix and its anchor (null = none), the tracking state, `ping_requested_at`; `source`,
 * `received_at`, `signal_ts` and the device details are kept when null; `late` adds one to
 * `late_fix_count`.
 */
export interface LocationRowWrite {
  latest: Fix | null;
  anchor: { ts: number; lat: number; lng: number } | null;
  /** set with the latest when it moved, else null (kept) */
  source: LocationSource | null;
  receivedAt: number | null;
  trackingStatus: boolean;
  trackingTs: number;
  device: { connection_type?: number; android_id?: string; loc_gps_on?: boolean; loc_net_on?: boolean };
  pingRequestedAt: number | null;
  /** ms a ping was delivered, else null (kept) */
  signalTs: number | null;
  updatedAt: number;
  late: boolean;
}

const INSERT_FIXES = `WITH ins AS (
  INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, received_at)
  SELECT $1, $2, u.ts, u.lat, u.lng, u.acc, u.dir, u.spd, u.elv, u.bat, $3
    FROM unnest($4::bigint[], $5::float8[], $6::float8[], $7::int[], $8::int[], $9::float8[], $10::int[], $11::int[])
      AS u(ts, lat, lng, acc, dir, spd, elv, bat)
  ON CONFLICT DO NOTHING
  RETURNING ts)
SELECT count(*)::int AS n, min(ts)::float8 AS lo, max(ts)::float8 AS hi FROM ins`;

// creates the member's row when missing and locks it either way, answering the stored values
const LOCK_ROW = `INSERT INTO member_locations (company_id, member_id, updated_at) VALUES ($1, $2, $3)
  ON CONFLICT (company_id, member_id) DO UPDATE SET updated_at = member_locations.updated_at
  RETURNING ts::float8 AS ts, lat, lng, acc, dir, spd, elv, bat, anchor_ts::float8 AS anchor_ts, anchor_lat, anchor_lng,
    tracking_status, tracking_ts::float8 AS tracking_ts, ping_requested_at::float8 AS ping_requested_at`;

const UPDATE_ROW = `UPDATE member_locations SET
    ts = $3, lat = $4, lng = $5, acc = $6, dir = $7, spd = $8, elv = $9, bat = $10,
    source = COALESCE($11, source), received_at = COALESCE($12, received_at),
    anchor_ts = $13, anchor_lat = $14, anchor_lng = $15,
    tracking_status = $16, tracking_ts = $17,
    connection_type = COALESCE($18, connection_type), android_id = COALESCE($19, android_id),
    loc_gps_on = COALESCE($20, loc_gps_on), loc_net_on = COALESCE($21, loc_net_on),
    ping_requested_at = $22, signal_ts = COALESCE($23, signal_ts), updated_at = $24,
    late_fix_count = late_fix_count + $25
  WHERE company_id = $1 AND member_id = $2`;

/** The fixes as the column arrays the insert statements `unnest` ($ts, lat, lng, acc, dir, spd, elv, bat). */
function fixColumns(fixes: readonly Fix[]): unknown[][] {
  return [
    fixes.map((f) => f.ts),
    fixes.map((f) => f.lat),
    fixes.map((f) => f.lng),
    fixes.map((f) => f.acc),
    fixes.map((f) => f.dir),
    fixes.map((f) => f.spd),
    fixes.map((f) => f.elv),
    fixes.map((f) => f.bat),
  ];
}

/**
 * Every SQL statement of device ingestion, scoped by company (the device statement finds each item's
 * company by its device id): the single ingest statement ({@link INGEST_MEMBER_SQL},
 * {@link INGEST_DEVICE_SQL}) as named prepared statements on the driver's pool, the tracking
 * transaction's statements over the caller's transaction, the clock events, and the fix partitions
 * made on demand.
 */
@Injectable()
export class IngestRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * The ingest statement for given members ({@link INGEST_MEMBER_SQL}) over `items`.
   * @returns one row per item, in item order
   * @throws Error when the statement answers another number of rows (never expected)
   */
  ingestMembers(items: readonly IngestItem[]): Promise<IngestRow[]> {
    return this.ingest('fieldwork_ingest_member', INGEST_MEMBER_SQL, items);
  }

  /**
   * The ingest statement for the members holding device ids ({@link INGEST_DEVICE_SQL}) over `items`.
   * @returns one row per item, in item order (member null: no active member holds the device id)
   * @throws Error when the statement answers another number of rows (never expected)
   */
  ingestDevices(items: readonly IngestItem[]): Promise<IngestRow[]> {
    return this.ingest('fieldwork_ingest_device', INGEST_DEVICE_SQL, items);
  }

  private async ingest(name: string, sql: string, items: readonly IngestItem[]): Promise<IngestRow[]> {
    const rows = await preparedQuery<IngestRow>(this.dataSource, name, sql, ingestParams(items));
    if (rows.length !== items.length) throw new Error(`ingest statement answered ${rows.length} rows for ${items.length} items`);
    return rows;
  }

  /** Creates the member's `member_locations` row when missing and locks it either way. @returns the stored values */
  lockRow(db: Queryable, companyId: string, memberId: string, now: number): Promise<StoredLocationRow> {
    // the upsert always answers its row
    return queryOne<StoredLocationRow>(db, LOCK_ROW, [companyId, memberId, now]) as Promise<StoredLocationRow>;
  }

  /** Inserts the member's fixes received at `now` (ms), a fix already stored at its `ts` skipped. */
  insertFixes(db: Queryable, companyId: string, memberId: string, now: number, fixes: readonly Fix[]): Promise<InsertedFixes> {
    // an aggregate always answers one row
    return queryOne<InsertedFixes>(db, INSERT_FIXES, [companyId, memberId, now, ...fixColumns(fixes)]) as Promise<InsertedFixes>;
  }

  /** Writes the member's row (locked by {@link lockRow}). */
  updateRow(db: Queryable, companyId: string, memberId: string, w: LocationRowWrite): Promise<void> {
    const l = w.latest;
    const d = w.device;
    return db.query(UPDATE_ROW, [
      companyId,
      memberId,
      l?.ts ?? null,
      l?.lat ?? null,
      l?.lng ?? null,
      l?.acc ?? null,
      l?.dir ?? null,
      l?.spd ?? null,
      l?.elv ?? null,
      l?.bat ?? null,
      w.source,
      w.receivedAt,
      w.anchor?.ts ?? null,
      w.anchor?.lat ?? null,
      w.anchor?.lng ?? null,
      w.trackingStatus,
      w.trackingTs,
      d.connection_type ?? null,
      d.android_id ?? null,
      d.loc_gps_on ?? null,
      d.loc_net_on ?? null,
      w.pingRequestedAt,
      w.signalTs,
      w.updatedAt,
      w.late ? 1 : 0,
    ]);
  }

  /**
   * Inserts a `clock_events` row: `ts` (ms), tracking on or off, where (degrees; absent = unknown),
   * received at `receivedAt` (ms).
   * @returns false when the member already has a clock event at `ts` (nothing written)
   */
  async insertClockEvent(
    db: Queryable,
    e: { companyId: string; memberId: string; ts: number; tracking: boolean; location?: { lat: number; lng: number }; receivedAt: number },
  ): Promise<boolean> {
    const inserted = await query<{ ts: string }>(
      db,
      `INSERT INTO clock_events (company_id, member_id, ts, tracking, lat, lng, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING RETURNING ts`,
      [e.companyId, e.memberId, e.ts, e.tracking, e.location?.lat ?? null, e.location?.lng ?? null, e.receivedAt],
    );
    return inserted.length > 0;
  }

  /**
   * Creates the `location_fixes` partitions of `months` (ms, each the first instant of a UTC month)
   * that are missing, by `location_fixes_ensure_partition` (creating one locks the parent table
   * briefly: never inside an ingest transaction).
   * @returns the partitions' names, in the order of `months`
   */
  async ensurePartitions(months: readonly number[]): Promise<string[]> {
    const rows = await query<{ name: string }>(
      this.dataSource,
      `SELECT location_fixes_ensure_partition(m) AS name FROM unnest($1::bigint[]) AS m`,
      [months],
    );
    return rows.map((r) => r.name);
  }
}
