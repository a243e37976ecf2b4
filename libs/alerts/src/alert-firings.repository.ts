import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AlertAction } from './alert-actions';
import type { AlertFiringRow } from './alert-rule-view';

/** One firing to store (`ts` ms, when the condition occurred). */
export interface FiringRowInput {
  id: string;
  ruleId: string;
  memberId: string;
  action: AlertAction;
  /** the key that makes it one (docs/alerts-evaluation.md) */
  occurrence: string;
  placeId: string | null;
  zoneId: string | null;
  checkType: 'IN' | 'OUT' | null;
  message: string;
  ts: number;
}

/**
 * Every SQL statement on `alert_firings`, scoped by company: the evaluator's once-per-occurrence
 * insert and getalertfirings' list.
 */
@Injectable()
export class AlertFiringsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * Inserts the company's firings in transaction `db`, in one statement:
   * `ON CONFLICT (company_id, rule_id, member_id, occurrence) DO NOTHING` (`created_at` the database's
   * `clock_timestamp()`, ms). @returns the ids of the rows inserted (an occurrence stored before is left out)
   */
  async insertOnce(db: EntityManager, companyId: string, rows: readonly FiringRowInput[]): Promise<string[]> {
    if (!rows.length) return [];
    const inserted = await query<{ id: string }>(
      db,
      `INSERT INTO alert_firings (company_id, id, rule_id, member_id, action, occurrence, place_id, zone_id, check_type, message, ts, created_at)
       SELECT $1, u.id, u.rule_id, u.member_id, u.action, u.occurrence, u.place_id, u.zone_id, u.check_type, u.message, u.ts,
              (floor(extract(epoch from clock_timestamp()) * 1000))::bigint
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[])
           AS u(id, rule_id, member_id, action, occurrence, place_id, zone_id, check_type, message, ts)
       ON CONFLICT (company_id, rule_id, member_id, occurrence) DO NOTHING
       RETURNING id`,
      [
        companyId,
        rows.map((r) => r.id),
        rows.map((r) => r.ruleId),
        rows.map((r) => r.memberId),
        rows.map((r) => r.action),
        rows.map((r) => r.occurrence),
        rows.map((r) => r.placeId),
        rows.map((r) => r.zoneId),
        rows.map((r) => r.checkType),
        rows.map((r) => r.message),
        rows.map((r) => r.ts),
      ],
    );
    return inserted.map((r) => r.id);
  }

  /**
   * The company's firings with `ts` ≥ `since` (ms), newest first (ties by id, descending), at most
   * `limit`, only the rule `ruleId`'s when given (a deleted rule's included). Served by the
   * (company_id, ts) and (company_id, rule_id, ts) indexes.
   */
  list(companyId: string, q: { since: number; ruleId: string | null; limit: number }): Promise<AlertFiringRow[]> {
    return query<AlertFiringRow>(
      this.dataSource,
      `SELECT id, rule_id AS "ruleId", action, member_id AS "memberId", place_id AS "placeId", zone_id AS "zoneId",
              check_type AS "checkType", message, ts
         FROM alert_firings
        WHERE company_id = $1 AND ts >= $2 AND ($3::text IS NULL OR rule_id = $3)
        ORDER BY ts DESC, id DESC
        LIMIT $4`,
      [companyId, q.since, q.ruleId, q.limit],
    );
  }
}
