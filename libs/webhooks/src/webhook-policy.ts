import { ActionRoles, ADMINISTRATORS, STAFF } from '@app/core';

/**
 * Who may configure webhooks and read their deliveries (CONTRACTS.md, "Roles"): this domain's
 * slice of the action → roles table. Operators read the configuration without the secret (the
 * service leaves it out); only administrators change it, rotate the secret or see deliveries.
 */
export const WEBHOOK_ACTION_ROLES = {
  getwebhooks: STAFF,
  setwebhooks: ADMINISTRATORS,
  rotatewebhooksecret: ADMINISTRATORS,
  getwebhookdeliveries: ADMINISTRATORS,
  replaywebhookdelivery: ADMINISTRATORS,
} as const satisfies ActionRoles;
