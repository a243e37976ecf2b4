import { AuthContext, NotificationsService, Optional, seesCompanyWideNotifications } from '@app/core';
import { Controller } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { Action, Caller, Data } from '../envelope/decorators';

export class GetNotificationsDto {
  /** ms, inclusive; default 0 */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  since?: number;

  /** default 100, at most 1000 */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

/** getnotifications (our extension): the caller's notifications, oldest first from `since`. */
@Controller('api')
export class NotificationsActionsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Action('getnotifications')
  async getnotifications(@Caller() ctx: AuthContext, @Data() dto: GetNotificationsDto) {
    const includeCompanyWide = seesCompanyWideNotifications({ id: ctx.memberId, role: ctx.role, teams: [], isOwner: ctx.isOwner });
    const notifications = await this.notifications.list(ctx.companyId, ctx.memberId, {
      since: dto.since ?? 0,
      limit: dto.limit ?? 100,
      includeCompanyWide,
    });
    return { status: 0, notifications };
  }
}
