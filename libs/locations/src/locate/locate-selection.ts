import { mayViewMember, MemberRef } from '@app/members';
import type { CompanySnapshot, SnapshotMember } from './company-snapshot';

/** Who `locate` selects (see `LocateQuery`): `accounts` keys, and `teams` numbers or `'all'`. */
export interface LocateSelection {
  /** uids or usernames (usernames compared case-insensitively) */
  accounts: readonly string[];
  /** team numbers, `'all'` (every member) or undefined (none) */
  teams: readonly number[] | 'all' | undefined;
}

/**
 * The members `locate` answers, in creation order (the spec's selection table, docs/locate.md):
 * the members named in `accounts` — by uid or by username, case-insensitively; a key naming one
 * member by uid and another by username selects both — united with the members of any of `teams`,
 * or every member when `teams` is `'all'`; each once; only active ones; only those `actor` may view
 * (`mayViewMember`: workers see themselves and their team-mates). Unknown keys select nothing.
 */
export function selectMembers(
  snapshot: Pick<CompanySnapshot, 'ordered' | 'byId' | 'byUsername'>,
  q: LocateSelection,
  actor: MemberRef,
): SnapshotMember[] {
  const all = q.teams === 'all';
  const teams = new Set(Array.isArray(q.teams) ? q.teams : []);
  const named = new Set<SnapshotMember>();
  for (const key of q.accounts) {
    const byId = snapshot.byId.get(key);
    if (byId) named.add(byId);
    const byUsername = snapshot.byUsername.get(key.toLowerCase());
    if (byUsername) named.add(byUsername);
  }
  if (!all && !teams.size && !named.size) return [];
  const chosen: SnapshotMember[] = [];
  for (const m of snapshot.ordered) {
    if (!m.active) continue;
    if (!all && !named.has(m) && !(teams.size && m.row.teams.some((t) => teams.has(t)))) continue;
    if (mayViewMember(actor, { id: m.row.uid, role: m.row.role, teams: m.row.teams, isOwner: false })) chosen.push(m);
  }
  return chosen;
}
