/**
 * The single statement of an ingestion call without a tracking report (most `pushlocations` calls,
 * every `/osmand` request): fixes, latest location with its anchor, Traccar's tracking flag, device
 * details and ping delivery in ONE statement — so one round trip and one implicit transaction.
 * Its member comes from a CTE `m`: the given company and member, or (for `/osmand`) the active
 * member holding a device id, so the device lookup costs no round trip of its own either.
 *
 * Parameters: $1 company id (null for a device lookup), $2 member id (or the device id), $3 now
 * (ms), $4…$11 the call's fixes, deduplicated (ts, lat, lng, acc, dir, spd, elv, bat arrays), $12…$19
 * the newest of them (null when none), $20 source, $21…$23 the anchor when the row is new
 * ({@link advanceLatest} from nothing), $24 set tracking on (Traccar Client with a fix), $25…$28
 * device details (null = unchanged), $29 deliver a pending ping.
 *
 * The anchor when the row exists mirrors {@link advanceLatest}: the newest of the stored anchor, the
 * stored latest and the call's fixes newer than it, at least 2 min older than the new latest; rows are
 * read as locked by ON CONFLICT, so concurrent calls of one member never move the latest backwards.
 * The answer's `ping` is read from the statement's snapshot.
 *
 * A call that stored a fix older than the stored latest (`ins` holds only the fixes actually stored,
 * so a retried batch counts nothing) adds one to `late_fix_count`, under the same row lock that keeps
 * `ts` only ever forward: a fix stored after any fix it is older than is always counted, which is what
 * lets the track builder skip re-counting the open track (docs/tracks.md "Appending").
 */
import { ANCHOR_MIN_AGE_MS } from './latest-location';

const MEMBER_GIVEN = `SELECT $1::varchar AS company_id, $2::varchar AS id`;
const MEMBER_OF_DEVICE = `SELECT company_id, id FROM members
  WHERE lower(device_id) = lower($2::varchar) AND device_id IS NOT NULL AND active_status = 'active' AND $1::varchar IS NULL`;

const ADVANCES = `($12::bigint IS NOT NULL AND $12::bigint > COALESCE(member_locations.ts, -1))`;
const latestColumn = (column: string, param: string) => `${column} = CASE WHEN ${ADVANCES} THEN ${param} ELSE member_locations.${column} END`;

function statement(member: string): string {
  return `WITH m AS (${member}),
old AS (
  SELECT l.ping_requested_at FROM member_locations l JOIN m ON l.company_id = m.company_id AND l.member_id = m.id),
ins AS (
  INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, received_at)
  SELECT m.company_id, m.id, u.ts, u.lat, u.lng, u.acc, u.dir, u.spd, u.elv, u.bat, $3
    FROM m CROSS JOIN unnest($4::bigint[], $5::float8[], $6::float8[], $7::int[], $8::int[], $9::float8[], $10::int[], $11::int[])
      AS u(ts, lat, lng, acc, dir, spd, elv, bat)
  ON CONFLICT DO NOTHING
  RETURNING ts),
up AS (
  INSERT INTO member_locations (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, source, received_at,
      anchor_ts, anchor_lat, anchor_lng, tracking_status, tracking_ts, connection_type, android_id, loc_gps_on, loc_net_on,
      ping_requested_at, signal_ts, updated_at)
  SELECT m.company_id, m.id, $12::bigint, $13::float8, $14::float8, $15::int, $16::int, $17::float8, $18::int, $19::int,
      CASE WHEN $12::bigint IS NULL THEN NULL ELSE $20::varchar END, CASE WHEN $12::bigint IS NULL THEN NULL ELSE $3::bigint END,
      $21::bigint, $22::float8, $23::float8, $24::boolean, 0, $25::int, $26::varchar, $27::boolean, $28::boolean, NULL, 0, $3::bigint
    FROM m
  ON CONFLICT (company_id, member_id) DO UPDATE SET
    ${latestColumn('ts', '$12::bigint')}, ${latestColumn('lat', '$13::float8')}, ${latestColumn('lng', '$14::float8')},
    ${latestColumn('acc', '$15::int')}, ${latestColumn('dir', '$16::int')}, ${latestColumn('spd', '$17::float8')},
    ${latestColumn('elv', '$18::int')}, ${latestColumn('bat', '$19::int')}, ${latestColumn('source', '$20::varchar')},
    ${latestColumn('received_at', '$3::bigint')},
    (anchor_ts, anchor_lat, anchor_lng) = (
      SELECT c.ts, c.lat, c.lng FROM (
        SELECT member_locations.anchor_ts, member_locations.anchor_lat, member_locations.anchor_lng
        UNION ALL
        SELECT member_locations.ts, member_locations.lat, member_locations.lng
         WHERE ${ADVANCES} AND member_locations.ts <= $12::bigint - ${ANCHOR_MIN_AGE_MS}
        UNION ALL
        (SELECT u.ts, u.lat, u.lng FROM unnest($4::bigint[], $5::float8[], $6::float8[]) AS u(ts, lat, lng)
          WHERE ${ADVANCES} AND u.ts > COALESCE(member_locations.ts, -1) AND u.ts <= $12::bigint - ${ANCHOR_MIN_AGE_MS}
          ORDER BY u.ts DESC LIMIT 1)
      ) AS c(ts, lat, lng) WHERE c.ts IS NOT NULL ORDER BY c.ts DESC LIMIT 1),
    tracking_status = member_locations.tracking_status OR $24::boolean,
    connection_type = COALESCE($25::int, member_locations.connection_type),
    android_id = COALESCE($26::varchar, member_locations.android_id),
    loc_gps_on = COALESCE($27::boolean, member_locations.loc_gps_on),
    loc_net_on = COALESCE($28::boolean, member_locations.loc_net_on),
    ping_requested_at = CASE WHEN $29::boolean THEN NULL ELSE member_locations.ping_requested_at END,
    signal_ts = CASE WHEN $29::boolean AND member_locations.ping_requested_at IS NOT NULL THEN $3::bigint ELSE member_locations.signal_ts END,
    late_fix_count = member_locations.late_fix_count + CASE WHEN (SELECT min(ts) FROM ins) < member_locations.ts THEN 1 ELSE 0 END,
    updated_at = $3::bigint
  RETURNING 1)
SELECT (SELECT company_id FROM m) AS company_id, (SELECT id FROM m) AS member_id,
  (SELECT count(*)::int FROM ins) AS n, (SELECT min(ts)::float8 FROM ins) AS lo, (SELECT max(ts)::float8 FROM ins) AS hi,
  $29::boolean AND COALESCE((SELECT ping_requested_at IS NOT NULL FROM old), false) AS ping`;
}

/** The single statement for a given member ($1 company, $2 member). */
export const INGEST_MEMBER_SQL = statement(MEMBER_GIVEN);
/** The single statement for the member holding a device id ($1 null, $2 device id; no row → unknown device). */
export const INGEST_DEVICE_SQL = statement(MEMBER_OF_DEVICE);

/** What the single statement answers (member null: no active member holds the device id). */
export interface IngestRow {
  company_id: string | null;
  member_id: string | null;
  n: number;
  lo: number | null;
  hi: number | null;
  ping: boolean;
}
