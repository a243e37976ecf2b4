import { mergeActionRoles } from '@app/core';
import { ALERT_ACTION_ROLES } from '@app/alerts';
import { DISPATCH_ACTION_ROLES, DISPATCH_ASSIGN_ACTION_ROLES } from '@app/dispatch';
import { JOB_ACTION_ROLES } from '@app/jobs';
import { LIVE_ACTION_ROLES } from '@app/live';
import { INGEST_ACTION_ROLES, LOCATE_ACTION_ROLES, TRACK_ACTION_ROLES } from '@app/locations';
import { MEMBER_ACTION_ROLES } from '@app/members';
import { PLACE_ACTION_ROLES } from '@app/places';
import { REPORT_ACTION_ROLES } from '@app/reports';
import { WEBHOOK_ACTION_ROLES } from '@app/webhooks';
import { ZONE_ACTION_ROLES } from '@app/zones';

/**
 * The action → roles table the api serves by: each domain's slice, merged (an action listed by two
 * slices stops the api from loading). `@Action(name)` takes only a name of this table, so a handler
 * without a roles entry does not compile; the guard refuses an action missing here to every role,
 * and the OpenAPI document prints each action's roles from here. A new domain adds its slice.
 */
export const ACTION_ROLES = mergeActionRoles(
  MEMBER_ACTION_ROLES,
  JOB_ACTION_ROLES,
  WEBHOOK_ACTION_ROLES,
  PLACE_ACTION_ROLES,
  INGEST_ACTION_ROLES,
  LOCATE_ACTION_ROLES,
  TRACK_ACTION_ROLES,
  DISPATCH_ACTION_ROLES,
  DISPATCH_ASSIGN_ACTION_ROLES,
  ALERT_ACTION_ROLES,
  ZONE_ACTION_ROLES,
  REPORT_ACTION_ROLES,
  LIVE_ACTION_ROLES,
);

/** The name of an action the api serves. */
export type ActionName = keyof typeof ACTION_ROLES;
