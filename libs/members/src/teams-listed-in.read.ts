import { query, Queryable } from '@app/core';

/**
 * The statement of {@link teamsListedIn} per table: the ids among `$2` that a live row (`deleted_at`
 * null) of company `$1` lists in its jsonb array column `teams`. One literal per table, so each table
 * a statement reads is named where the statement is.
 */
const TEAMS_LISTED_IN = {
  places: `SELECT DISTINCT t::int AS team FROM places r, jsonb_array_elements_text(r.teams) t
            WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
  zones: `SELECT DISTINCT t::int AS team FROM zones r, jsonb_array_elements_text(r.teams) t
           WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
  alert_rules: `SELECT DISTINCT t::int AS team FROM alert_rules r, jsonb_array_elements_text(r.teams) t
                 WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
} as const;

/**
 * The common `TeamReferenceSource.teamsInUse` of a table whose live rows list their teams in a jsonb
 * array column `teams`: the ids among `teamIds` some live row of the company still lists.
 *
 * A documented read model across domains, kept for its callers' sake: it reads `places` (owned by
 * `@app/places`), `zones` (`@app/zones`) and `alert_rules` (`@app/alerts`) — `company_id`,
 * `deleted_at` and `teams` only — on the owner's behalf: the owning lib's repository calls it with
 * its own table, on the caller's transaction (editcompany holds the company row's lock while it asks).
 * Where it should go: each owner's repository holding its one-line statement, as
 * `PlacesRepository.teamsInUse` does (docs/places-and-geo.md "Team references"); this function then
 * goes.
 */
export async function teamsListedIn(
  manager: Queryable,
  table: 'places' | 'zones' | 'alert_rules',
  companyId: string,
  teamIds: readonly number[],
): Promise<number[]> {
  const rows = await query<{ team: number }>(manager, TEAMS_LISTED_IN[table], [companyId, [...teamIds]]);
  return rows.map((r) => r.team);
}
