import { ActionRoles, ANY_ROLE, Role } from '@app/core';

/**
 * Reports' slice of the action → roles table (CONTRACTS.md "Roles for wave 2"): every role may call
 * createreport and getreport — a worker only about itself ({@link reportAccessDenial}).
 */
export const REPORT_ACTION_ROLES = {
  createreport: ANY_ROLE,
  getreport: ANY_ROLE,
} as const satisfies ActionRoles;

/**
 * Why `caller` may not request a report of `type` on `memberIds`, or null when it may: staff on any
 * member or place; a worker only on itself, never company-wide types (alerts, members, places,
 * placeonsite).
 */
export function reportAccessDenial(caller: { memberId: string; role: Role }, companyWide: boolean, memberIds: readonly string[]): string | null {
  if (caller.role !== 'worker') return null;
  if (companyWide) return 'a worker may report only on itself: company-wide reports are for staff';
  if (memberIds.some((id) => id !== caller.memberId)) return 'a worker may report only on itself';
  return null;
}

/** Whether `caller` may read report `run` (its creator, or the company's staff). */
export function canReadReport(caller: { memberId: string; role: Role }, creatorId: string | null): boolean {
  return caller.role !== 'worker' || caller.memberId === creatorId;
}
