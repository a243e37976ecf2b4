import { queryOne, Queryable } from '@app/core';

/** A member as events name it (`who`): uid, name, username. */
export interface EventWho {
  uid: string;
  name: string;
  username: string;
}

/**
 * A read model of the members lib's `members` table: the member as location events name it (`who`
 * of `clockin`/`clockout` and `placecheckin`/`placecheckout`), read in the caller's transaction.
 * Reads `members` (id, name, username) by company and id.
 * @returns undefined when the company has no such member
 */
export function readEventWho(db: Queryable, companyId: string, memberId: string): Promise<EventWho | undefined> {
  return queryOne<EventWho>(db, `SELECT id AS uid, name, username FROM members WHERE company_id = $1 AND id = $2`, [companyId, memberId]);
}
