import { Global, Module } from '@nestjs/common';
import { NotificationsService } from './notifications/notifications.service';
import { OutboxService } from './outbox/outbox.service';

/** The outbox and notifications, available to every domain module. */
@Global()
@Module({
  providers: [OutboxService, NotificationsService],
  exports: [OutboxService, NotificationsService],
})
export class CoreModule {}
