import { query, Queryable, Role } from '@app/core';
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
 * Every SQL statement on the `members` table, one method per purpose, over the caller's transaction
 * (`db`) or the pool. Usernames (and `device_id`) are unique across the platform case-insensitively
 * (`UQ_members_username_lower`), so the username lookups that serve sign-up and key issuing are not
 * scoped by company; every other statement is.
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

  /** Inserts or updates the member (TypeORM `save`). */
  async save(db: EntityManager, member: Member): Promise<void> {
    await db.getRepository(Member).save(member);
  }

  /** Inserts a member row as given (a new company's owner). */
  async insert(db: EntityManager, member: Partial<Member>): Promise<void> {
    await db.getRepository(Member).insert(member);
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

  /** The member with this username (case-insensitive), in ANY company, active or not; null if none. */
  findByUsername(db: EntityManager, username: string): Promise<Member | null> {
    return db.getRepository(Member).createQueryBuilder('m').where('lower(m.username) = lower(:u)', { u: username }).getOne();
  }

  /** Whether any member, of any company, has this username (case-insensitive). */
  async usernameTaken(db: Queryable, username: string): Promise<boolean> {
    return (await query(db, `SELECT 1 FROM members WHERE lower(username) = lower($1)`, [username])).length > 0;
  }

  /** The active member with this username (case-insensitive), in any company: its id and company; undefined if none. */
  async activeByUsername(username: string, db: Queryable = this.dataSource): Promise<{ id: string; company_id: string } | undefined> {
    const [row] = await query<{ id: string; company_id: string }>(
      db,
      `SELECT id, company_id FROM members WHERE lower(username) = lower($1) AND active_status = 'active'`,
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

  /** Marks a member deactivated at `now` (ms). */
  async deactivate(db: EntityManager, id: string, now: number): Promise<void> {
    await db.getRepository(Member).update({ id }, { activeStatus: 'deactivated', deactivatedAt: now, updatedAt: now });
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
