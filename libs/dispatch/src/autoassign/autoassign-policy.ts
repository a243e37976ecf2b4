import { ActionRoles, STAFF } from '@app/core';

/**
 * distributejobs and autoassign: staff only (CONTRACTS.md "Roles for wave 2"); this slice of the
 * action → roles table is merged by the api.
 */
export const DISPATCH_ASSIGN_ACTION_ROLES = {
  distributejobs: STAFF,
  autoassign: STAFF,
} as const satisfies ActionRoles;
