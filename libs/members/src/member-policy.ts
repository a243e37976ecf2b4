import { ActionRoles, ADMINISTRATORS, ANY_ROLE, AuthContext, Role, STAFF } from '@app/core';

/**
 * Who may do what with members, the company and notifications (CONTRACTS.md, "Roles"): this
 * domain's slice of the action → roles table, and pure rules over roles, ids and teams that the
 * services call.
 */
export const MEMBER_ACTION_ROLES = {
  getaccounts: ANY_ROLE,
  createaccount: STAFF,
  editaccount: ANY_ROLE,
  deleteaccount: STAFF,
  getcompany: ANY_ROLE,
  editcompany: ADMINISTRATORS,
  getnotifications: ANY_ROLE,
} as const satisfies ActionRoles;

/** The member a rule is applied to. */
export interface MemberRef {
  id: string;
  role: Role;
  teams: number[];
  isOwner: boolean;
}

/** A member row as a rule's target; `ownerId` is the company account's id. */
export function memberRefOf(m: { id: string; role: Role; teams: number[] }, ownerId: string | null): MemberRef {
  return { id: m.id, role: m.role, teams: m.teams, isOwner: m.id === ownerId };
}

/** The caller as a rule's actor: its role and ownership from its key, `teams` its stored teams. */
export function callerRefOf(ctx: Pick<AuthContext, 'memberId' | 'role' | 'isOwner'>, teams: number[]): MemberRef {
  return { id: ctx.memberId, role: ctx.role, teams, isOwner: ctx.isOwner };
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
export function seesCompanyWideNotifications(actor: Pick<MemberRef, 'role'>): boolean {
  return actor.role !== 'worker';
}
