/**
 * The one place that decides who may do what (CONTRACTS.md, "Roles"). Pure functions over roles,
 * ids and company settings; services call these, controllers declare the action's roles.
 */
export type Role = 'worker' | 'operator' | 'administrator';
export const ROLES: readonly Role[] = ['worker', 'operator', 'administrator'];

const ROLE_ALIASES: Record<string, Role> = {
  worker: 'worker',
  operator: 'operator',
  dispatcher: 'operator',
  administrator: 'administrator',
  admin: 'administrator',
};

/** `Worker`, `dispatcher`, `ADMIN`… → the stored spelling; undefined when not a role. */
export function normalizeRole(value: unknown): Role | undefined {
  if (typeof value !== 'string') return undefined;
  const key = value.toLowerCase();
  return Object.hasOwn(ROLE_ALIASES, key) ? ROLE_ALIASES[key] : undefined;
}

/** Defaults of the three worker settings. */
export const DEFAULT_WORKER_SETTINGS = {
  workers_edit_job: false,
  workers_create_places: false,
  workers_view_places: true,
} as const;

const ALL: readonly Role[] = ROLES;
const STAFF: readonly Role[] = ['operator', 'administrator'];
const ADMIN: readonly Role[] = ['administrator'];

/**
 * Roles allowed to call each action at all. Finer rules (which members, which fields) are the
 * functions below. An action missing here is refused to everyone.
 */
export const ACTION_ROLES = {
  getaccounts: ALL,
  createaccount: STAFF,
  editaccount: ALL,
  deleteaccount: STAFF,
  getcompany: ALL,
  editcompany: ADMIN,
  getnotifications: ALL,
  getjobs: ALL,
  createjobs: STAFF,
  editjobs: ALL,
  deletejobs: STAFF,
  archivejobs: STAFF,
  restorejobs: STAFF,
  getwebhooks: STAFF,
  setwebhooks: ADMIN,
  rotatewebhooksecret: ADMIN,
  getwebhookdeliveries: ADMIN,
  replaywebhookdelivery: ADMIN,
} as const satisfies Record<string, readonly Role[]>;
export type ActionName = keyof typeof ACTION_ROLES;

export function mayCallAction(role: Role, action: ActionName): boolean {
  return (ACTION_ROLES[action] as readonly Role[]).includes(role);
}

/** The member a rule is applied to. */
export interface MemberRef {
  id: string;
  role: Role;
  teams: number[];
  isOwner: boolean;
}

/** getaccounts: staff see every member; a worker sees itself and members sharing a team. */
export function mayViewMember(actor: MemberRef, target: MemberRef): boolean {
  if (actor.role !== 'worker' || actor.id === target.id) return true;
  return target.teams.some((t) => actor.teams.includes(t));
}

/** Deactivated members are listed by id only to staff. */
export function mayViewDeactivated(actor: MemberRef): boolean {
  return actor.role !== 'worker';
}

/** createaccount (and reactivation): administrators create any role, dispatchers workers only. */
export function mayCreateRole(actor: MemberRef, role: Role): boolean {
  if (actor.role === 'administrator') return true;
  return actor.role === 'operator' && role === 'worker';
}

/** Fields a worker may change on its own profile. */
export const WORKER_SELF_FIELDS = [
  'name',
  'phone',
  'email',
  'color',
  'status_label',
  'unit_distance',
  'unit_time',
  'unit_date',
  'timezone',
  'language',
  'device_id',
] as const;

/**
 * editaccount: which of `fields` the actor may not change on `target`; `null` when the actor may
 * not edit the target at all (the caller answers as for an unknown member).
 */
export function deniedMemberFields(actor: MemberRef, target: MemberRef, fields: string[]): string[] | null {
  if (actor.role === 'administrator') {
    // the owner keeps its role (it can't be demoted)
    return target.isOwner ? fields.filter((f) => f === 'role') : [];
  }
  if (actor.id === target.id) {
    // a dispatcher or worker edits its own profile with the worker's limited fields
    return fields.filter((f) => !(WORKER_SELF_FIELDS as readonly string[]).includes(f));
  }
  if (actor.role === 'operator') return target.role === 'worker' ? fields.filter((f) => f === 'role') : null;
  return null;
}

/** deleteaccount: administrators deactivate anyone but the owner; dispatchers workers only. */
export function mayDeactivate(actor: MemberRef, target: MemberRef): boolean {
  if (target.isOwner) return false;
  if (actor.role === 'administrator') return true;
  return actor.role === 'operator' && target.role === 'worker';
}

/** getnotifications: staff also see company-wide notifications. */
export function seesCompanyWideNotifications(actor: MemberRef): boolean {
  return actor.role !== 'worker';
}

/** Job fields a worker may write on its own jobs (`extra_*_val` and `custom_*` match by pattern). */
export const WORKER_JOB_FIELDS = [
  'tsAccepted',
  'tsRejected',
  'tsDoneSuccess',
  'tsDoneFailed',
  'tsCheckIn',
  'tsCheckOut',
  'tsCheckNFC1',
  'tsCheckNFC2',
  'textReceiver',
] as const;

/**
 * editjobs by a worker: why it may not apply this write, or null when it may. Staff may edit any
 * job. A worker edits its own jobs of today (or undated) — any day with `workers_edit_job` — and
 * only {@link WORKER_JOB_FIELDS}, `extra_*_val`, `custom_*`, and `day` with the setting.
 * @param job the job's assignee, day (YYYYMMDD or 0) and whether it is a template
 * @param today the company's today (YYYYMMDD)
 */
export function workerJobEditDenial(
  actor: { id: string; role: Role },
  settings: { workers_edit_job: boolean },
  job: { workerId: string | null; day: number; isTemplate: boolean },
  keys: string[],
  today: number,
): string | null {
  if (actor.role !== 'worker') return null;
  if (job.isTemplate) return 'a worker may not edit templates';
  if (job.workerId !== actor.id) return 'a worker may edit only its own jobs';
  if (!settings.workers_edit_job && job.day !== 0 && job.day !== today)
    return 'a worker may edit only jobs of today unless the company enables workers_edit_job';
  for (const key of keys) {
    if ((WORKER_JOB_FIELDS as readonly string[]).includes(key) || /^extra_(number|text)_[1-4]_val$/.test(key) || key.startsWith('custom_'))
      continue;
    if (key === 'day' && settings.workers_edit_job) continue;
    return `${key}: a worker may not change it${key === 'day' ? ' unless the company enables workers_edit_job' : ''}`;
  }
  return null;
}
