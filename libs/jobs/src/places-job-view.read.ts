/**
 * The job view's read model (docs/places-and-geo.md, docs/zones.md): every job read (getjobs, events,
 * the connector, the rows an insert answers) selects `jobs` with its company's defaults (`companies`),
 * its assignee's and dispatcher's names (`members`), its place (`places`: name, radius, location) and
 * its `linkedZones` (`zones`) — tables of the members, places and zones libs, read here only; their
 * writes and lookups go through those libs' services. The jobs repository composes these fragments.
 */

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

/** The columns of `jobs` a source of {@link insertedJobRefsSql} must hold (an `INSERT … RETURNING` list). */
export const INSERTED_JOB_REFS_COLUMNS = 'id, company_id, worker_id, dispatcher_uid, place_uid, destination_lat, destination_lng';

/** One row of {@link insertedJobRefsSql}: what the views of the jobs just inserted read from other tables. */
export interface InsertedJobRefs {
  /** the ids inserted (a job skipped by `ON CONFLICT` is not here) */
  ids: string[] | null;
  /** the members the jobs name as assignee or dispatcher: [id, username, name, email, phone] */
  members: Array<[string, string, string, string, string]> | null;
  /** the places the jobs name: [id, name, radius (m)] */
  places: Array<[string, string, number]> | null;
  /** the company's [default_radius (m), timezone, extra_labels] */
  company: [number, string, Record<string, string>];
  /** the jobs whose `linkedZones` is not '': [id, linkedZones] (none read when the company has no live zone) */
  zones: Array<[string, string]> | null;
}

/**
 * The same fields as {@link JOB_SELECT_SQL}'s joins, for a batch of jobs just inserted, as ONE row
 * read by key rather than per job: the members, places and company the batch names (once each), and
 * {@link LINKED_ZONES_SQL} per job only when the company has a live zone. `source` is a CTE of
 * `INSERT … RETURNING` {@link INSERTED_JOB_REFS_COLUMNS}, `company` the placeholder of its company.
 * At 1,000 jobs it reads in ~77 ms (insert included) what the per-row joins read in ~93
 * (EXPLAIN ANALYZE, bench/RESULTS.md "createjobs", 2026-11-28 15:55). `JobsRepository` rebuilds each
 * view's joined fields from it exactly as the joins would give them (`joinedOfInserted`).
 */
export function insertedJobRefsSql(source: string, company: string): string {
  return `SELECT (SELECT json_agg(id) FROM ${source}) AS ids,
  (SELECT json_agg(json_build_array(m.id, m.username, m.name, m.email, m.phone)) FROM members m
    WHERE m.company_id = ${company} AND m.id IN (SELECT worker_id FROM ${source} UNION SELECT dispatcher_uid FROM ${source})) AS members,
  (SELECT json_agg(json_build_array(p.id, p.name, p.radius)) FROM places p
    WHERE p.company_id = ${company} AND p.id IN (SELECT place_uid FROM ${source})) AS places,
  (SELECT json_build_array(c.default_radius, c.timezone, c.extra_labels) FROM companies c WHERE c.id = ${company}) AS company,
  (SELECT json_agg(json_build_array(x.id, x.zones)) FROM (
     SELECT j.id, ${LINKED_ZONES_SQL} AS zones FROM ${source} j
       LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id
      WHERE EXISTS (SELECT 1 FROM zones z0 WHERE z0.company_id = ${company} AND z0.deleted_at IS NULL)) x
    WHERE x.zones <> '') AS zones`;
}

/**
 * The id of the company's member whose username is `username` (case-insensitive), as a scalar
 * subquery over `members`; `company` and `username` are parameter placeholders (`$n`). The company as a
 * parameter, not the outer row: the subquery runs once and IDX_jobs_company_worker_day_number applies.
 */
export function memberIdByUsernameSql(company: string, username: string): string {
  return `(SELECT id FROM members m WHERE m.company_id = ${company} AND lower(m.username) = lower(${username}))`;
}
