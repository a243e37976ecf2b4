import { ActionRoles, ANY_ROLE } from '@app/core';

/**
 * Who may call the locations actions (CONTRACTS.md "Roles for wave 2"). Every role may call `locate`;
 * which members a worker gets is the members lib's `mayViewMember` (self and team-mates).
 */
export const LOCATE_ACTION_ROLES = {
  locate: ANY_ROLE,
} as const satisfies ActionRoles;
