/**
 * The job view's read model (docs/places-and-geo.md, docs/zones.md): every job read (getjobs, events,
 * the connector, the views createjobs builds) selects `jobs` with its company's defaults (`companies`),
 * its assignee's and dispatcher's names (`members`), its place (`places`: name, radius, location) and
 * its `linkedZones` (`zones`) — tables of the members, places and zones libs, read here only; their
 * writes and lookups go through those libs' services. The jobs repository composes these fragments.
 */
import { SQL_NOW_MS } from '@app/core';

/**
 * A job's `linkedZones` (CONTRACTS.md "Alerts and zones"; docs/zones.md): the ids of the live zones
 * of its company that cover its destination — `destination_lat/lng` when both are set, else its
 * place's `location` — comma-joined in id order (= creation order), '' when none or no position.
 * Derived on every read, so a zone write changes no job and fires no event. A correlated subquery
 * answered from the GiST index on `zones (company_id, polygon) WHERE deleted_at IS NULL`
 * (`ST_Covers(geography)`: the boundary counts as covered).
 */
export const LINKED_ZONES_SQL = `COALESCE((SELECT string_agg(z.id, ',' ORDER BY z.id) FROM zones z
    WHERE z.company_id = j.company_id AND z.deleted_at IS NULL
      AND ST_Covers(z.polygon, COALESCE(CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL
        THEN ST_SetSRID(ST_MakePoint(j.destination_lng, j.destination_lat), 4326)::geography END, p.location))), '')`;

/**
 * The SELECT every job read uses (getjobs, events, the connector): the job with its assignee,
 * dispatcher, place and company defaults. bigint columns are cast to float8 so `pg` answers numbers.
 * Append `WHERE …` with `j.company_id = $1` first.
 *
 * A documented read model across domains: the join on `places` (owned by `@app/places`) reads only
 * a place's `name`, `radius` and `location`, for the view; writes and lookups go through
 * `PlacesService` (docs/places-and-geo.md). `linkedZones` reads `zones` (owned by `@app/zones`):
 * see {@link LINKED_ZONES_SQL}.
 */
export const JOB_SELECT_SQL = jobSelectSql('jobs');

/** {@link JOB_SELECT_SQL} over `source` (aliased `j`). */
function jobSelectSql(source: string): string {
  return `SELECT j.id, j.is_template AS "isTemplate", j.archived, j.type, j.team_id AS "teamId",
  j.destination_name AS "destinationName", j.destination_lat AS "destinationLat", j.destination_lng AS "destinationLng",
  j.destination_text AS "destinationText", j.destination_url AS "destinationUrl", j.text_dispatcher AS "textDispatcher",
  j.text_receiver AS "textReceiver", j.contact_name AS "contactName", j.contact_phone AS "contactPhone",
  j.contact_email AS "contactEmail", j.day, j.priority, j.number, j.on_site_seconds AS "onSiteSeconds",
  j.window_start AS "windowStart", j.window_end AS "windowEnd", j.order_id::float8 AS "orderId",
  j.dispatcher_uid AS "dispatcherUid", j.place_uid AS "placeUid", j.worker_id AS "workerId",
  j.items_to_dropoff AS "itemsToDropoff", j.items_to_pickup AS "itemsToPickup", j.uid_secondary AS "uidSecondary",
  j.custom_fields AS "customFields", j.extra, j.ts_created::float8 AS "tsCreated", j.ts_assigned::float8 AS "tsAssigned",
  j.ts_accepted::float8 AS "tsAccepted", j.ts_rejected::float8 AS "tsRejected", j.ts_done_success::float8 AS "tsDoneSuccess",
  j.ts_done_failed::float8 AS "tsDoneFailed", j.ts_check_in::float8 AS "tsCheckIn", j.ts_check_out::float8 AS "tsCheckOut",
  j.ts_check_nfc1::float8 AS "tsCheckNFC1", j.ts_check_nfc2::float8 AS "tsCheckNFC2", j.ts_saved::float8 AS "tsSaved",
  j.created_at::float8 AS "createdAt", j.version, j.created_by AS "createdBy", j.created_via AS "createdVia",
  w.username AS "workerUsername", w.name AS "workerName", w.email AS "workerEmail", w.phone AS "workerPhone",
  d.name AS "dispatcherName", p.name AS "placeName", p.radius AS "placeRadius",
  c.default_radius AS "defaultRadius", c.timezone AS "timezone", ${LINKED_ZONES_SQL} AS "linkedZones",
  c.extra_labels AS "extraLabels"
FROM ${source} j
JOIN companies c ON c.id = j.company_id
LEFT JOIN members w ON w.id = j.worker_id AND w.company_id = j.company_id
LEFT JOIN members d ON d.id = j.dispatcher_uid AND d.company_id = j.company_id
LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id`;
}

/** One row of {@link BATCH_JOB_REFS_SQL}: what the views of a batch of jobs read from other tables. */
export interface BatchJobRefs {
  /** the members the jobs name as assignee or dispatcher: [id, username, name, email, phone] */
  members: Array<[string, string, string, string, string]> | null;
  /** the places the jobs name: [id, name, radius (m)] */
  places: Array<[string, string, number]> | null;
  /** the company's [default_radius (m), timezone, extra_labels] */
  company: [number, string, Record<string, string>];
  /** the jobs whose `linkedZones` is not '': [id, linkedZones] (none read when the company has no live zone) */
  zones: Array<[string, string]> | null;
  /** the transaction's clock (ms): `ts_saved` and `created_at` of a job it inserts */
  now: number;
}

/**
 * The same fields as {@link JOB_SELECT_SQL}'s joins, for a batch of one company's jobs (createjobs':
 * about to be inserted), as ONE row read by key rather than per job: the members and places the
 * batch names (once each), the company, and {@link LINKED_ZONES_SQL} per job only when the company
 * has a live zone; with the transaction's clock. Parameters: `$1` the company, `$2` the member ids the
 * jobs name (text[]), `$3` the place ids (text[]), `$4` the jobs as a json array of
 * [id, place_uid, destination_lat, destination_lng] (read only for the zones).
 * Read before the insert (docs/jobs-writes.md, "Views built while the insert runs"); until then it
 * was a part of the insert statement, where at 1,000 jobs it read in ~77 ms (insert included) what
 * the per-row joins read in ~93 (EXPLAIN ANALYZE, bench/RESULTS.md "createjobs", 2026-11-28 15:55).
 * `JobsRepository` rebuilds each view's joined fields from it exactly as the joins would give them
 * (`joinedOfBatch`).
 */
export const BATCH_JOB_REFS_SQL = `SELECT
  (SELECT json_agg(json_build_array(m.id, m.username, m.name, m.email, m.phone)) FROM members m
    WHERE m.company_id = $1 AND m.id = ANY($2::text[])) AS members,
  (SELECT json_agg(json_build_array(p.id, p.name, p.radius)) FROM places p
    WHERE p.company_id = $1 AND p.id = ANY($3::text[])) AS places,
  (SELECT json_build_array(c.default_radius, c.timezone, c.extra_labels) FROM companies c WHERE c.id = $1) AS company,
  (SELECT json_agg(json_build_array(x.id, x.zones)) FROM (
     SELECT j.id, ${LINKED_ZONES_SQL} AS zones
       FROM (SELECT b->>0 AS id, $1::text AS company_id, b->>1 AS place_uid,
                    (b->>2)::float8 AS destination_lat, (b->>3)::float8 AS destination_lng
               FROM json_array_elements($4::json) b) j
       LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id
      WHERE EXISTS (SELECT 1 FROM zones z0 WHERE z0.company_id = $1 AND z0.deleted_at IS NULL)) x
    WHERE x.zones <> '') AS zones,
  ${SQL_NOW_MS}::float8 AS "now"`;

/**
 * The id of the company's member whose username is `username` (case-insensitive), as a scalar
 * subquery over `members`; `company` and `username` are parameter placeholders (`$n`). The company as a
 * parameter, not the outer row: the subquery runs once and IDX_jobs_company_worker_day_number applies.
 */
export function memberIdByUsernameSql(company: string, username: string): string {
  return `(SELECT id FROM members m WHERE m.company_id = ${company} AND lower(m.username) = lower(${username}))`;
}
