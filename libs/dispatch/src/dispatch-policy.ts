import { ActionRoles, ANY_ROLE, Role } from '@app/core';

/**
 * Dispatch's slice of the action → roles table (CONTRACTS.md "Roles for wave 2"): optimizeroute for
 * every role — a worker only for its own route ({@link routeAccessDenial}).
 */
export const DISPATCH_ACTION_ROLES = {
  optimizeroute: ANY_ROLE,
} as const satisfies ActionRoles;

/**
 * Why `caller` may not optimize `memberId`'s route, or null when it may: staff any member's, a
 * worker only its own.
 */
export function routeAccessDenial(caller: { memberId: string; role: Role }, memberId: string): string | null {
  if (caller.role !== 'worker' || caller.memberId === memberId) return null;
  return 'a worker may optimize only its own route';
}
