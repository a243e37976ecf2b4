import { ActionRoles, ANY_ROLE } from '@app/core';

/**
 * Tracks' slice of the action → roles table (CONTRACTS.md "Roles for wave 2"): every role may call
 * gettracks; which members a worker sees (self and team-mates) is the members lib's view rule.
 */
export const TRACK_ACTION_ROLES = {
  gettracks: ANY_ROLE,
} as const satisfies ActionRoles;
