import {
  AlertFiringsService,
  AlertRulesService,
  CreateAlertDto,
  DeleteAlertDto,
  EditAlertDto,
  GetAlertFiringsDto,
  GetAlertsDto,
} from '@app/alerts';
import { AuthContext } from '@app/core';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** Alert-rule actions and getalertfirings (our extension; CONTRACTS.md "Alerts and zones", docs/alerts.md). */
@Controller('api')
export class AlertsActionsController {
  constructor(
    private readonly rules: AlertRulesService,
    private readonly firings: AlertFiringsService,
  ) {}

  @Action('createalert')
  async createalert(@Caller() ctx: AuthContext, @Data() dto: CreateAlertDto) {
    return { status: 0, ...(await this.rules.createAlert(ctx, dto)) };
  }

  @Action('getalerts')
  async getalerts(@Caller() ctx: AuthContext, @Data() dto: GetAlertsDto) {
    return { status: 0, alerts: await this.rules.getAlerts(ctx, dto) };
  }

  @Action('editalert')
  async editalert(@Caller() ctx: AuthContext, @Data() dto: EditAlertDto) {
    return { status: 0, alert: await this.rules.editAlert(ctx, dto) };
  }

  @Action('deletealert')
  async deletealert(@Caller() ctx: AuthContext, @Data() dto: DeleteAlertDto) {
    await this.rules.deleteAlerts(ctx, dto.targets);
    return { status: 0 };
  }

  @Action('getalertfirings')
  async getalertfirings(@Caller() ctx: AuthContext, @Data() dto: GetAlertFiringsDto) {
    return { status: 0, firings: await this.firings.list(ctx, dto) };
  }
}
