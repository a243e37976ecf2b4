import { ActionRoles, ANY_ROLE, Role, WorkerSettings } from '@app/core';

/**
 * Who may do what with places (CONTRACTS.md "Roles for wave 2"): this domain's slice of the action →
 * roles table, and the setting-dependent worker rules `PlacesService` applies. Every role reaches the
 * actions; a worker's writes depend on `workers_create_places` and what it sees on
 * `workers_view_places`, which the rules below decide.
 */
export const PLACE_ACTION_ROLES = {
  createplace: ANY_ROLE,
  editplace: ANY_ROLE,
  deleteplace: ANY_ROLE,
  getplaces: ANY_ROLE,
} as const satisfies ActionRoles;

/** The place-writing actions. */
export type PlaceWriteAction = 'createplace' | 'editplace' | 'deleteplace';

/**
 * createplace / editplace / deleteplace: administrators and operators always; workers only when the
 * company enables `workers_create_places`.
 * @returns the rule broken, as a sentence, or null when the caller may write places
 */
export function placeWriteDenial(
  actor: { role: Role; settings: Pick<WorkerSettings, 'workers_create_places'> },
  action: PlaceWriteAction,
): string | null {
  if (actor.role !== 'worker' || actor.settings.workers_create_places) return null;
  return `a worker may not ${action.replace('place', '')} places unless the company enables workers_create_places`;
}

/**
 * Which places a caller sees (getplaces, and the places editplace/deleteplace may name): `'all'`, or
 * the caller's teams — a worker whose company disables `workers_view_places` sees only places
 * sharing one of its teams (none when it has no team).
 */
export function placeVisibility(
  actor: { role: Role; settings: Pick<WorkerSettings, 'workers_view_places'> },
  actorTeams: readonly number[],
): 'all' | { teams: number[] } {
  if (actor.role !== 'worker' || actor.settings.workers_view_places) return 'all';
  return { teams: [...actorTeams] };
}
