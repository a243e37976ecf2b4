import { AuthContext, invalid, newId, notFound, Queryable } from '@app/core';
import type { AlertAction } from './alert-actions';
import { Injectable } from '@nestjs/common';
import { AlertReferences } from './alert-references.service';
import { actionParamIssue, AlertRuleParams, mergeParams, ParamPatch } from './alert-rule-rules';
import { alertRuleView, AlertRuleView } from './alert-rule-view';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertTarget, CreateAlertDto, EditAlertDto, GetAlertsDto, paramPatchOf } from './dto/alert-rule.dto';
import { AlertRule } from './entities/alert-rule.entity';

const NO_PARAMS: AlertRuleParams = { placeId: null, zoneId: null, interval: null, threshold: null, window: null };

/**
 * Alert rules (CONTRACTS.md "Alerts and zones", our extension): createalert, editalert, getalerts,
 * deletealert. Every query is scoped by the caller's company; another company's rules, places, zones
 * and members behave as unknown ids. Roles are the api's (`ALERT_ACTION_ROLES`). The evaluator reads
 * the rules it writes (`alert_rules`, live = `deleted_at IS NULL`).
 */
@Injectable()
export class AlertRulesService {
  constructor(
    private readonly rules: AlertRulesRepository,
    private readonly refs: AlertReferences,
  ) {}

  /**
   * createalert: the rule, checked against its action's rules (`actionParamIssue`) and the company's
   * rows (live place, live zone — a danger zone for `enters_danger_zone` —, active members, teams).
   * @returns the new rule's id and view
   * @throws DomainError invalid naming the field and the rule it broke
   */
  async createAlert(ctx: AuthContext, dto: CreateAlertDto): Promise<{ id: string; alert: AlertRuleView }> {
    const patch = paramPatchOf(dto);
    const params = mergeParams(NO_PARAMS, dto.action, patch, dto.action);
    assertParams(dto.action, params);
    await this.assertParamReferences(undefined, ctx.companyId, dto.action, params, patch, false);
    const members = await this.refs.memberIds(ctx.companyId, dto.members ?? [], 'data.members');
    const teams = await this.refs.teamIds(ctx.companyId, dto.teams ?? [], 'data.teams');
    const rule: AlertRule = {
      id: newId(),
      companyId: ctx.companyId,
      title: dto.title ?? '',
      description: dto.description ?? '',
      action: dto.action,
      members,
      teams,
      ...params,
      active: dto.active ?? true,
      createdAt: Date.now(),
      updatedAt: null,
      deletedAt: null,
    };
    await this.rules.insert(rule);
    return { id: rule.id, alert: alertRuleView(rule) };
  }

  /**
   * editalert: only the fields sent change (`null` clears a parameter); when `action` changes, stored
   * parameters the new action does not take are dropped (`mergeParams`). The result is checked as
   * createalert checks a rule; references are checked when sent (and the zone again when the action
   * changes, as `enters_danger_zone` needs a danger zone). The row is locked for the edit.
   * @throws DomainError not_found naming `data.id` (unknown, deleted or another company's rule);
   *   invalid naming the field and the rule it broke
   */
  async editAlert(ctx: AuthContext, dto: EditAlertDto): Promise<AlertRuleView> {
    // targets don't depend on the stored rule: resolved before the row is locked
    const members = dto.members && (await this.refs.memberIds(ctx.companyId, dto.members, 'data.members'));
    const teams = dto.teams && (await this.refs.teamIds(ctx.companyId, dto.teams, 'data.teams'));
    return this.rules.transaction(async (manager) => {
      const rule = await this.rules.lockLive(manager, ctx.companyId, dto.id);
      if (!rule) throw notFound(`data.id: alert rule ${dto.id}`);
      const action = dto.action ?? rule.action;
      const patch = paramPatchOf(dto);
      const params = mergeParams(paramsOf(rule), rule.action, patch, action);
      assertParams(action, params);
      await this.assertParamReferences(manager, ctx.companyId, action, params, patch, action !== rule.action);
      const next: AlertRule = { ...rule, ...params, action, updatedAt: Date.now() };
      if (dto.title !== undefined) next.title = dto.title;
      if (dto.description !== undefined) next.description = dto.description;
      if (dto.active !== undefined) next.active = dto.active;
      if (members) next.members = members;
      if (teams) next.teams = teams;
      await this.rules.save(manager, next);
      return alertRuleView(next);
    });
  }

  /** getalerts: the company's live rules, oldest first; `ids` narrows (unknown ids absent), `active` filters. */
  async getAlerts(ctx: AuthContext, dto: GetAlertsDto): Promise<AlertRuleView[]> {
    const rules = await this.rules.findLive(ctx.companyId, { ids: dto.ids, active: dto.active });
    return rules.map(alertRuleView);
  }

  /**
   * deletealert: soft delete (`deleted_at`) — the rules stop firing and leave getalerts, while their
   * firings (getalertfirings, the `alerts` report) still name them. All or nothing.
   * @throws DomainError not_found naming the first target that is not a live rule of the company
   */
  async deleteAlerts(ctx: AuthContext, targets: readonly AlertTarget[]): Promise<void> {
    await this.rules.transaction(async (manager) => {
      const ids = [...new Set(targets.map((t) => t.id))];
      const found = await this.rules.lockLiveIds(manager, ctx.companyId, ids);
      const missing = targets.find((t) => !found.has(t.id));
      if (missing) throw notFound(`${missing.field}: alert rule ${missing.id}`);
      await this.rules.softDelete(manager, ctx.companyId, ids, Date.now());
    });
  }

  /**
   * The place and zone the rule names exist in the company: those sent, and the zone again when the
   * action changed (it may now have to be a danger zone); read in `db` (the edit's transaction), else
   * on the pool.
   */
  private async assertParamReferences(
    db: Queryable | undefined,
    companyId: string,
    action: AlertAction,
    params: AlertRuleParams,
    patch: ParamPatch,
    actionChanged: boolean,
  ): Promise<void> {
    if (params.placeId !== null && patch.placeId !== undefined) await this.refs.assertPlace(db, companyId, params.placeId, 'data.placeUid');
    if (params.zoneId !== null && (patch.zoneId !== undefined || actionChanged))
      await this.refs.assertZone(db, companyId, params.zoneId, action === 'enters_danger_zone', 'data.zoneId');
  }
}

/** @throws DomainError invalid naming the first parameter that breaks the action's rules */
function assertParams(action: AlertAction, params: AlertRuleParams): void {
  const issue = actionParamIssue(action, params);
  if (issue) throw invalid(issue.field, issue.rule);
}

function paramsOf(rule: AlertRule): AlertRuleParams {
  return { placeId: rule.placeId, zoneId: rule.zoneId, interval: rule.interval, threshold: rule.threshold, window: rule.window };
}
