import { Global, Module } from '@nestjs/common';
import { NotificationsRepository } from './notifications/notifications.repository';
import { NotificationsService } from './notifications/notifications.service';
import { OutboxRepository } from './outbox/outbox.repository';
import { OutboxService } from './outbox/outbox.service';

/** The outbox and notifications, available to every domain module. */
@Global()
@Module({
  providers: [OutboxRepository, OutboxService, NotificationsRepository, NotificationsService],
  exports: [OutboxRepository, OutboxService, NotificationsRepository, NotificationsService],
})
export class CoreModule {}
