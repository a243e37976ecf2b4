/**
 * A SQL fragment the report reads share: a row's team names from `companies.teams_config` (the members
 * lib's table). Reports read across the domains' tables through documented reads (docs/reports.md
 * "Read model"): a report streams from one snapshot in a thread with plain `pg`, where the domains'
 * Nest services are not available.
 */

/**
 * The names of the teams of a row's `teams` jsonb array of ids, comma-separated in id order, from
 * the company's `teams_config`. `teamsExpr` is the jsonb column (e.g. `m.teams`), `companyExpr` the
 * company id (e.g. `m.company_id`).
 */
export function teamNamesSql(teamsExpr: string, companyExpr: string): string {
  return `(SELECT string_agg(t->>'name', ', ' ORDER BY (t->>'id')::int)
             FROM companies tc, jsonb_array_elements(tc.teams_config) t
            WHERE tc.id = ${companyExpr} AND ${teamsExpr} @> jsonb_build_array((t->>'id')::int))`;
}
