import { AuthContext, GetNotificationsDto, NotificationsService } from '@app/core';
import { seesCompanyWideNotifications } from '@app/members';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** getnotifications (our extension): the caller's notifications, oldest first from `since`. */
@Controller('api')
export class NotificationsActionsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Action('getnotifications')
  async getnotifications(@Caller() ctx: AuthContext, @Data() dto: GetNotificationsDto) {
    const includeCompanyWide = seesCompanyWideNotifications(ctx);
    const notifications = await this.notifications.list(ctx.companyId, ctx.memberId, {
      since: dto.since ?? 0,
      limit: dto.limit ?? 100,
      includeCompanyWide,
    });
    return { status: 0, notifications };
  }
}
