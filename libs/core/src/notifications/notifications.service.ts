import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotificationInput, NotificationKindSpec } from './notification-kinds';
import { NotificationsRepository, NotificationView } from './notifications.repository';
import { OutboxService } from '../outbox/outbox.service';
import { outboxEvent, STREAM_ONLY_KEY } from '../outbox/outbox-events';

export type { NotificationView } from './notifications.repository';

/** Notifications: written by the domains in their transactions, listed by `getnotifications`. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * Writes a notification in the caller's transaction, its recipient (`memberId` null =
   * company-wide) and job checked against its kind's entry in `NotificationKinds` — and, in the same
   * transaction, its `notification` outbox event, which the live stream carries to the addressee
   * (a company-wide one to the administrators and operators, who list those in `getnotifications`).
   * @returns the outbox event's id (no webhook ever delivers it; nothing to wake).
   */
  async add(manager: EntityManager, n: NotificationInput): Promise<string> {
    const { memberId, jobId }: NotificationKindSpec = n;
    const view = await this.repo.insert(manager, { companyId: n.companyId, memberId, kind: n.kind, jobId: jobId ?? null });
    const [eventId] = await this.outbox.appendMany(manager, [
      outboxEvent({ notification: STREAM_ONLY_KEY }, 'notification', {
        companyId: n.companyId,
        formId: view.id,
        data: view,
        audience: memberId ? { staff: false, members: [memberId] } : { staff: true },
      }),
    ]);
    return eventId;
  }

  /**
   * Notifications visible to a member, oldest first from `since` (ms, inclusive).
   * `includeCompanyWide`: administrators and dispatchers also see company-wide rows (member null).
   */
  list(
    companyId: string,
    memberId: string,
    opts: { since: number; limit: number; includeCompanyWide: boolean },
  ): Promise<NotificationView[]> {
    return this.repo.list(companyId, memberId, opts);
  }
}
