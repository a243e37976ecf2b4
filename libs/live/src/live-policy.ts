import { ActionRoles, ANY_ROLE } from '@app/core';

/**
 * Who may do what with the live stream (CONTRACTS.md "Wave 3: live stream"): every role may ask for
 * a stream token (what the stream then shows is narrowed by role, `stream-audience.ts`).
 */
export const LIVE_ACTION_ROLES = {
  createstreamtoken: ANY_ROLE,
} as const satisfies ActionRoles;
