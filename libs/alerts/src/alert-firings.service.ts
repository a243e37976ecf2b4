import { AuthContext, query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { alertFiringView, AlertFiringRow, AlertFiringView } from './alert-rule-view';
import { DEFAULT_FIRINGS_LIMIT, GetAlertFiringsDto } from './dto/alert-rule.dto';

/**
 * getalertfirings (our extension, CONTRACTS.md "Alerts and zones"): the company's stored firings
 * (`alert_firings`, written by the evaluator), read-only here.
 */
@Injectable()
export class AlertFiringsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The company's firings with `ts` ≥ `since` (ms, default 0), newest first (ties by id, descending),
   * at most `limit` (default 100), only the rule `ruleId`'s when given — a deleted rule's firings
   * included; another company's rule id gives an empty list. Served by the (company_id, ts) and
   * (company_id, rule_id, ts) indexes.
   */
  async list(ctx: AuthContext, dto: GetAlertFiringsDto): Promise<AlertFiringView[]> {
    const rows = await query<AlertFiringRow>(
      this.dataSource,
      `SELECT id, rule_id AS "ruleId", action, member_id AS "memberId", place_id AS "placeId", zone_id AS "zoneId",
              check_type AS "checkType", message, ts
         FROM alert_firings
        WHERE company_id = $1 AND ts >= $2 AND ($3::text IS NULL OR rule_id = $3)
        ORDER BY ts DESC, id DESC
        LIMIT $4`,
      [ctx.companyId, dto.since ?? 0, dto.ruleId ?? null, dto.limit ?? DEFAULT_FIRINGS_LIMIT],
    );
    return rows.map(alertFiringView);
  }
}
