import { ActionRoles, ANY_ROLE, STAFF } from '@app/core';

/**
 * Who may do what with zones (CONTRACTS.md "Roles for wave 2"): this domain's slice of the action →
 * roles table. Every role reads every live zone — a worker sees danger zones whatever its teams
 * (docs/zones.md "Who sees zones"); administrators and operators write them.
 */
export const ZONE_ACTION_ROLES = {
  getzones: ANY_ROLE,
  createzone: STAFF,
  editzone: STAFF,
  deletezone: STAFF,
} as const satisfies ActionRoles;
