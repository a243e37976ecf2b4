import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Company } from './entities/company.entity';

/**
 * Every SQL statement on the `companies` table, one method per purpose, over the caller's transaction
 * (`db`) or the pool. A company is always named by its id (the tenant); the owner's username is read
 * with `members`, the same lib's table.
 */
@Injectable()
export class CompaniesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** Inserts a company row as given. */
  async insert(db: EntityManager, company: Partial<Company>): Promise<void> {
    await db.getRepository(Company).insert(company);
  }

  /** Sets the company's owner (the company account). */
  async setOwner(db: EntityManager, companyId: string, ownerMemberId: string): Promise<void> {
    await db.getRepository(Company).update({ id: companyId }, { ownerMemberId });
  }

  /** Saves a company read by {@link lock} (TypeORM `save`: the changed columns). */
  async save(db: EntityManager, company: Company): Promise<void> {
    await db.getRepository(Company).save(company);
  }

  /**
   * Locks (`FOR UPDATE`) and reads the company: writes that must not race on it (member creation
   * against the member limit, editcompany) serialise here.
   * @throws EntityNotFoundError when there is none
   */
  lock(db: EntityManager, companyId: string): Promise<Company> {
    return db
      .getRepository(Company)
      .createQueryBuilder('c')
      .setLock('pessimistic_write')
      .where('c.id = :id', { id: companyId })
      .getOneOrFail();
  }

  /** The company by id; null when there is none. */
  findById(companyId: string): Promise<Company | null> {
    return this.dataSource.getRepository(Company).findOneBy({ id: companyId });
  }

  /**
   * The company by id.
   * @throws EntityNotFoundError when there is none
   */
  findByIdOrFail(companyId: string, db: EntityManager = this.dataSource.manager): Promise<Company> {
    return db.getRepository(Company).findOneByOrFail({ id: companyId });
  }

  /** The id of the company's owner (the company account); null when unknown. */
  async ownerId(companyId: string, db: Queryable = this.dataSource): Promise<string | null> {
    const [row] = await query<{ owner_member_id: string | null }>(db, `SELECT owner_member_id FROM companies WHERE id = $1`, [companyId]);
    return row?.owner_member_id ?? null;
  }

  /** The username of the company's owner (the company account); "" when unknown. */
  async ownerUsername(companyId: string): Promise<string> {
    const [row] = await query<{ username: string }>(
      this.dataSource,
      `SELECT m.username FROM companies c JOIN members m ON m.company_id = c.id AND m.id = c.owner_member_id WHERE c.id = $1`,
      [companyId],
    );
    return row?.username ?? '';
  }
}
