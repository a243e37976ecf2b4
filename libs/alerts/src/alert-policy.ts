import { ActionRoles, ADMINISTRATORS, STAFF } from '@app/core';

/**
 * Who may do what with alert rules (CONTRACTS.md "Roles for wave 2"): this domain's slice of the
 * action → roles table. Rules are written by administrators only; administrators and operators read
 * them and their firings; workers reach none of them.
 */
export const ALERT_ACTION_ROLES = {
  createalert: ADMINISTRATORS,
  editalert: ADMINISTRATORS,
  deletealert: ADMINISTRATORS,
  getalerts: STAFF,
  getalertfirings: STAFF,
} as const satisfies ActionRoles;
