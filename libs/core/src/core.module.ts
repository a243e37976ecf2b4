import { Global, Module } from '@nestjs/common';
import { ReplicaReads } from './database/replica-reads.service';
import { NotificationsRepository } from './notifications/notifications.repository';
import { NotificationsService } from './notifications/notifications.service';
import { OutboxRepository } from './outbox/outbox.repository';
import { OutboxService } from './outbox/outbox.service';
import { OutboxStamping } from './outbox/outbox-stamping.service';
import { ShareTokensRepository } from './share-tokens/share-tokens.repository';
import { StampParticipants } from './outbox/stamp-participants';
import { StampedEvents } from './outbox/stamped-events.service';

/** The outbox (with its stamping), notifications, the share tokens' lookup and the read replica's routing, available to every domain module. */
const SHARED = [
  OutboxRepository,
  OutboxService,
  OutboxStamping,
  StampParticipants,
  StampedEvents,
  NotificationsRepository,
  NotificationsService,
  ShareTokensRepository,
  ReplicaReads,
];

@Global()
@Module({ providers: SHARED, exports: SHARED })
export class CoreModule {}
