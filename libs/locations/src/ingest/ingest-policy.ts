import { ActionRoles, ANY_ROLE } from '@app/core';

/**
 * The ingestion slice of the action → roles table (CONTRACTS.md "Roles for wave 2"): any active
 * member pushes its own fixes (the action acts for the key's member, never for another).
 */
export const INGEST_ACTION_ROLES = {
  pushlocations: ANY_ROLE,
} as const satisfies ActionRoles;
