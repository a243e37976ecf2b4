import { query, Queryable, queryOne, Role } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Member } from './entities/member.entity';

/** A member as other domains pick it for a field (assignee, dispatcher, alert target). */
export interface ActiveMemberRef {
  id: string;
  username: string;
  role: Role;
  teams: number[];
}

/**
 * The unique violation (SQLSTATE 23505) a write raises when another member, of any company, has the
 * username (case-insensitive): the primary key of the global lookup table `member_usernames`.
 */
export const USERNAME_TAKEN = 'PK_member_usernames';

/** The unique violation a write raises when another member, of any company, has the `device_id` (case-insensitive). */
export const DEVICE_ID_TAKEN = 'PK_member_device_ids';

/**
 * Every SQL statement on the `members` table and its two global lookup tables, one method per
 * purpose, over the caller's transaction (`db`) or the pool. `members` is per-company (primary key
 * `(company_id, id)`). Usernames and `device_id`s are unique across the platform case-insensitively:
 * `member_usernames` (lower(username) → company_id, member_id) and `member_device_ids` (lower(device_id)
 * → company_id, member_id) hold them, with their primary key on the key; every write of a member
 * writes their rows in the same transaction (before the member's row, so a taken key fails as
 * {@link USERNAME_TAKEN} / {@link DEVICE_ID_TAKEN}). The lookups by username (sign-up, key issuing)
 * read `member_usernames` first, then the member by `(company_id, id)`; every other statement is
 * scoped by company. A deactivated member keeps its keys (its username and device stay taken).
 */
@Injectable()
export class MembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** A new (unsaved) member entity with `fields`; {@link save} writes it. */
  create(fields: Partial<Member>, db: EntityManager = this.dataSource.manager): Member {
    return db.getRepository(Member).create(fields);
  }

  /**
   * Inserts or updates the member (TypeORM `save`) in the caller's transaction, with its rows in
   * `member_usernames` / `member_device_ids` (a changed key: the old row deleted, the new inserted).
   * @throws QueryFailedError unique violation {@link USERNAME_TAKEN} or {@link DEVICE_ID_TAKEN} when
   *   another member has the key (the transaction is then aborted: the caller rolls it back)
   */
  async save(db: EntityManager, member: Member): Promise<void> {
    const before = await queryOne<{ username: string; device_id: string | null }>(
      db,
      `SELECT username, device_id FROM members WHERE company_id = $1 AND id = $2`,
      [member.companyId, member.id],
    );
    await this.writeKeys(db, member, before ? { username: before.username, deviceId: before.device_id } : null);
    await db.getRepository(Member).save(member);
  }

  /**
   * Inserts a member row as given (a new company's owner), with its lookup rows.
   * @throws QueryFailedError unique violation {@link USERNAME_TAKEN} / {@link DEVICE_ID_TAKEN}
   */
  async insert(db: EntityManager, member: Partial<Member> & Pick<Member, 'id' | 'companyId' | 'username'>): Promise<void> {
    await this.writeKeys(db, member, null);
    await db.getRepository(Member).insert(member);
  }

  /**
   * Brings the member's lookup rows from `before` (its keys as stored; null for a new member) to
   * `after`: a key that changed (case-insensitively, as the lookup compares) loses its old row and
   * gains the new one; an unchanged key is not touched.
   */
  private async writeKeys(
    db: Queryable,
    after: { companyId: string; id: string; username: string; deviceId?: string | null },
    before: { username: string; deviceId: string | null } | null,
  ): Promise<void> {
    const owner = [after.companyId, after.id];
    const deviceId = after.deviceId ?? null;
    if (before?.username !== after.username) {
      if (before)
        await query(db, `DELETE FROM member_usernames WHERE username = lower($3) AND company_id = $1 AND member_id = $2`, [
          ...owner,
          before.username,
        ]);
      await query(db, `INSERT INTO member_usernames (username, company_id, member_id) VALUES (lower($3), $1, $2)`, [
        ...owner,
        after.username,
      ]);
    }
    if ((before?.deviceId ?? null) !== deviceId) {
      if (before?.deviceId) {
        await query(db, `DELETE FROM member_device_ids WHERE device_id = lower($3) AND company_id = $1 AND member_id = $2`, [
          ...owner,
          before.deviceId,
        ]);
      }
      if (deviceId !== null) {
        await query(db, `INSERT INTO member_device_ids (device_id, company_id, member_id) VALUES (lower($3), $1, $2)`, [
          ...owner,
          deviceId,
        ]);
      }
    }
  }

  /** The company's active members, oldest first (created, then id). */
  listActive(companyId: string): Promise<Member[]> {
    return this.dataSource
      .getRepository(Member)
      .createQueryBuilder('m')
      .where('m.company_id = :companyId', { companyId })
      .andWhere(`m.active_status = 'active'`)
      .orderBy('m.created_at')
      .addOrderBy('m.id')
      .getMany();
  }

  /** The company's members among `ids`, active or not, oldest first (another company's ids absent). */
  listByIds(companyId: string, ids: readonly string[]): Promise<Member[]> {
    return this.dataSource
      .getRepository(Member)
      .createQueryBuilder('m')
      .where('m.company_id = :companyId', { companyId })
      .andWhere('m.id IN (:...uids)', { uids: ids })
      .orderBy('m.created_at')
      .addOrderBy('m.id')
      .getMany();
  }

  /**
   * The member with this username (case-insensitive), in ANY company, active or not; null if none.
   * Found through `member_usernames`, then by `(company_id, id)`.
   */
  findByUsername(db: EntityManager, username: string): Promise<Member | null> {
    return db
      .getRepository(Member)
      .createQueryBuilder('m')
      .where('(m.company_id, m.id) = (SELECT u.company_id, u.member_id FROM member_usernames u WHERE u.username = lower(:u))', {
        u: username,
      })
      .getOne();
  }

  /** Whether any member, of any company, has this username (case-insensitive): a `member_usernames` row. */
  async usernameTaken(db: Queryable, username: string): Promise<boolean> {
    return (await query(db, `SELECT 1 FROM member_usernames WHERE username = lower($1)`, [username])).length > 0;
  }

  /**
   * The active member with this username (case-insensitive), in any company: its id and company;
   * undefined if none. One statement: `member_usernames`, then the member by `(company_id, id)`.
   */
  async activeByUsername(username: string, db: Queryable = this.dataSource): Promise<{ id: string; company_id: string } | undefined> {
    const [row] = await query<{ id: string; company_id: string }>(
      db,
      `SELECT m.id, m.company_id FROM member_usernames u JOIN members m ON m.company_id = u.company_id AND m.id = u.member_id
        WHERE u.username = lower($1) AND m.active_status = 'active'`,
      [username],
    );
    return row;
  }

  /** Locks (`FOR UPDATE`) and reads the company's member with this id; null if none. */
  lockById(db: EntityManager, companyId: string, id: string): Promise<Member | null> {
    return db
      .getRepository(Member)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.company_id = :companyId', { companyId })
      .andWhere('m.id = :uid', { uid: id })
      .getOne();
  }

  /** Locks (`FOR UPDATE`) and reads the company's member with this username (case-insensitive); null if none. */
  lockByUsername(db: EntityManager, companyId: string, username: string): Promise<Member | null> {
    return db
      .getRepository(Member)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.company_id = :companyId', { companyId })
      .andWhere('lower(m.username) = lower(:account)', { account: username })
      .getOne();
  }

  /** Locks (`FOR UPDATE`) and reads the company's members among `ids`. */
  lockByIds(db: EntityManager, companyId: string, ids: readonly string[]): Promise<Member[]> {
    return db
      .getRepository(Member)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.company_id = :companyId AND m.id IN (:...ids)', { companyId, ids })
      .getMany();
  }

  /** Marks the company's member deactivated at `now` (ms); its username and device stay taken. */
  async deactivate(db: EntityManager, companyId: string, id: string, now: number): Promise<void> {
    await db.getRepository(Member).update({ companyId, id }, { activeStatus: 'deactivated', deactivatedAt: now, updatedAt: now });
  }

  /** How many active members the company has. */
  async countActive(db: Queryable, companyId: string): Promise<number> {
    const [{ count }] = await query<{ count: number }>(
      db,
      `SELECT count(*)::int AS count FROM members WHERE company_id = $1 AND active_status = 'active'`,
      [companyId],
    );
    return count;
  }

  /** A member's `teams` by id; undefined when there is no such member. */
  async teamsOf(memberId: string, db: Queryable = this.dataSource): Promise<number[] | undefined> {
    const [row] = await query<{ teams: number[] }>(db, `SELECT teams FROM members WHERE id = $1`, [memberId]);
    return row?.teams;
  }

  /** A member's username by id; undefined when there is no such member. */
  async usernameOf(memberId: string): Promise<string | undefined> {
    const [row] = await query<{ username: string }>(this.dataSource, `SELECT username FROM members WHERE id = $1`, [memberId]);
    return row?.username;
  }

  /** Which of `teamIds` an active member of the company lists in its `teams`. */
  async teamsInUse(db: Queryable, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      db,
      `SELECT DISTINCT t.team::int AS team
         FROM members m, jsonb_array_elements(m.teams) AS t(team)
        WHERE m.company_id = $1 AND m.active_status = 'active' AND t.team::int = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }

  /**
   * The connector's member search: the company's active members whose id is `text`, or whose name,
   * username or e-mail contains `like` (a lower-case `LIKE` pattern, `\` escaping), by name then id;
   * every active member when `text` is undefined.
   */
  search(companyId: string, text?: { text: string; like: string }): Promise<Member[]> {
    const qb = this.dataSource
      .getRepository(Member)
      .createQueryBuilder('m')
      .where(`m.company_id = :companyId AND m.active_status = 'active'`, { companyId });
    if (text) {
      qb.andWhere(`(m.id = :query OR lower(m.name) LIKE :like OR lower(m.username) LIKE :like OR lower(m.email) LIKE :like)`, {
        query: text.text,
        like: text.like,
      });
    }
    return qb.orderBy('m.name').addOrderBy('m.id').getMany();
  }

  /**
   * The company's member with this id.
   * @throws EntityNotFoundError when there is none
   */
  findInCompanyOrFail(companyId: string, id: string): Promise<Member> {
    return this.dataSource.getRepository(Member).findOneByOrFail({ id, companyId });
  }

  /**
   * Active members of the company among `usernames` (lower-case; compared with `lower(username)`)
   * and `ids`.
   */
  findActive(companyId: string, usernames: readonly string[], ids: readonly string[]): Promise<ActiveMemberRef[]> {
    return query<ActiveMemberRef>(
      this.dataSource,
      `SELECT id, username, role, teams FROM members
        WHERE company_id = $1 AND active_status = 'active' AND (lower(username) = ANY($2::text[]) OR id = ANY($3::text[]))`,
      [companyId, [...usernames], [...ids]],
    );
  }

  /** The company's member whose username (case-insensitive) or id is `account`, active or not; null if none. */
  findByAccount(companyId: string, account: string): Promise<Member | null> {
    return this.dataSource
      .getRepository(Member)
      .createQueryBuilder('m')
      .where('m.company_id = :companyId', { companyId })
      .andWhere('(lower(m.username) = lower(:account) OR m.id = :account)', { account })
      .getOne();
  }

  /** Clears invitation tokens (every company's) that expired before `before` (ms). @returns how many. */
  async clearExpiredInvitations(before: number): Promise<number> {
    const res: [unknown[], number] = await this.dataSource.query(
      `UPDATE members SET invitation_token_hash = NULL, invitation_expires_at = NULL
        WHERE invitation_expires_at IS NOT NULL AND invitation_expires_at < $1`,
      [before],
    );
    return res[1];
  }
}
