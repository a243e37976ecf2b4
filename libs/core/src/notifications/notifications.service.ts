import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotificationInput, NotificationKindSpec } from './notification-kinds';
import { NotificationsRepository, NotificationView } from './notifications.repository';

export type { NotificationView } from './notifications.repository';

/** Notifications: written by the domains in their transactions, listed by `getnotifications`. */
@Injectable()
export class NotificationsService {
  constructor(private readonly repo: NotificationsRepository) {}

  /**
   * Writes a notification in the caller's transaction, its recipient (`memberId` null =
   * company-wide) and job checked against its kind's entry in `NotificationKinds`.
   */
  async add(manager: EntityManager, n: NotificationInput): Promise<void> {
    const { memberId, jobId }: NotificationKindSpec = n;
    await this.repo.insert(manager, { companyId: n.companyId, memberId, kind: n.kind, jobId: jobId ?? null });
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
