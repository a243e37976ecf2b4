import { AuthContext } from '@app/core';
import { Injectable } from '@nestjs/common';
import { AlertFiringsRepository } from './alert-firings.repository';
import { alertFiringView, AlertFiringView } from './alert-rule-view';
import { DEFAULT_FIRINGS_LIMIT, GetAlertFiringsDto } from './dto/alert-rule.dto';

/**
 * getalertfirings (our extension, CONTRACTS.md "Alerts and zones"): the company's stored firings
 * (`alert_firings`, written by the evaluator), read-only here.
 */
@Injectable()
export class AlertFiringsService {
  constructor(private readonly firings: AlertFiringsRepository) {}

  /**
   * The company's firings with `ts` ≥ `since` (ms, default 0), newest first (ties by id, descending),
   * at most `limit` (default 100), only the rule `ruleId`'s when given — a deleted rule's firings
   * included; another company's rule id gives an empty list. Served by the (company_id, ts) and
   * (company_id, rule_id, ts) indexes.
   */
  async list(ctx: AuthContext, dto: GetAlertFiringsDto): Promise<AlertFiringView[]> {
    const rows = await this.firings.list(ctx.companyId, {
      since: dto.since ?? 0,
      ruleId: dto.ruleId ?? null,
      limit: dto.limit ?? DEFAULT_FIRINGS_LIMIT,
    });
    return rows.map(alertFiringView);
  }
}
