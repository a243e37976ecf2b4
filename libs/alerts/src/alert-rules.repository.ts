import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { AlertRule } from './entities/alert-rule.entity';

/** A rule as one JSON object with the entity's property names (bigints as JSON numbers). */
export const RULE_JSON = `json_build_object('id', r.id, 'companyId', r.company_id, 'title', r.title, 'description', r.description,
  'action', r.action, 'members', r.members, 'teams', r.teams, 'placeId', r.place_id, 'zoneId', r.zone_id,
  'interval', r."interval", 'threshold', r.threshold, 'window', r."window", 'active', r.active,
  'createdAt', r.created_at, 'updatedAt', r.updated_at, 'deletedAt', r.deleted_at)`;

/** SQL: rule `r` is live (active, not deleted). */
export const LIVE_RULE_SQL = `r.active AND r.deleted_at IS NULL`;

/**
 * Every SQL statement on `alert_rules`, scoped by company (live = `deleted_at IS NULL`; the evaluator
 * reads only live AND active rules). The evaluation's reads that join other libs' tables are its
 * read models (`evaluation/*.read.ts`).
 */
@Injectable()
export class AlertRulesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** Inserts a rule. */
  async insert(rule: AlertRule): Promise<void> {
    await this.dataSource.getRepository(AlertRule).insert(rule);
  }

  /** Writes every column of `rule` (an edit) in transaction `manager`. */
  async save(manager: EntityManager, rule: AlertRule): Promise<void> {
    await manager.getRepository(AlertRule).save(rule);
  }

  /** The company's live rule `id`, locked for update in transaction `manager`; null when it is not one. */
  lockLive(manager: EntityManager, companyId: string, id: string): Promise<AlertRule | null> {
    return manager.getRepository(AlertRule).findOne({
      where: { companyId, id, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** The company's live rules, oldest first (ties by id); `ids` narrows (unknown ids absent), `active` filters. */
  findLive(companyId: string, filter: { ids?: readonly string[]; active?: boolean }): Promise<AlertRule[]> {
    return this.dataSource.getRepository(AlertRule).find({
      where: {
        companyId,
        deletedAt: IsNull(),
        ...(filter.ids ? { id: In([...filter.ids]) } : {}),
        ...(filter.active !== undefined ? { active: filter.active } : {}),
      },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Locks the company's live rules among `ids` (`FOR UPDATE`, in id order) in transaction `manager`.
   * @returns the ids found
   */
  async lockLiveIds(manager: EntityManager, companyId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await query<{ id: string }>(
      manager,
      `SELECT id FROM alert_rules WHERE company_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
      [companyId, [...ids]],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Soft-deletes rules (`deleted_at` = `updated_at` = `now`, ms) in transaction `manager`. */
  async softDelete(manager: EntityManager, companyId: string, ids: readonly string[], now: number): Promise<void> {
    await query(manager, `UPDATE alert_rules SET deleted_at = $3, updated_at = $3 WHERE company_id = $1 AND id = ANY($2::text[])`, [
      companyId,
      [...ids],
      now,
    ]);
  }

  /** Every live (active, not deleted) rule of the company, any action, as entities. */
  async liveCompanyRules(db: Queryable, companyId: string): Promise<AlertRule[]> {
    const rows = await query<{ rule: AlertRule }>(db, `SELECT ${RULE_JSON} AS rule FROM alert_rules r WHERE r.company_id = $1 AND ${LIVE_RULE_SQL}`, [
      companyId,
    ]);
    return rows.map((r) => r.rule);
  }

  /** Which of `teamIds` a live (not deleted) rule of the company targets in `teams`. */
  async teamsInUse(db: Queryable, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      db,
      `SELECT DISTINCT t::int AS team FROM alert_rules r, jsonb_array_elements_text(r.teams) t
        WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
