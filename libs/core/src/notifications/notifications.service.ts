import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../ids';
import { SQL_NOW_MS } from '../time';
import { NotificationInput, NotificationKindSpec } from './notification-kinds';

/** A notification as `getnotifications` answers it. */
export interface NotificationView {
  id: string;
  kind: string;
  memberUid: string | null;
  jobId: string | null;
  /** ms */
  ts: number;
}

@Injectable()
export class NotificationsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes a notification in the caller's transaction, its recipient (`memberId` null =
   * company-wide) and job checked against its kind's entry in `NotificationKinds`.
   */
  async add(manager: EntityManager, n: NotificationInput): Promise<void> {
    const { memberId, jobId }: NotificationKindSpec = n;
    await manager.query(
      `INSERT INTO notifications (id, company_id, member_id, kind, job_id, ts) VALUES ($1, $2, $3, $4, $5, ${SQL_NOW_MS})`,
      [newId(), n.companyId, memberId, n.kind, jobId ?? null],
    );
  }

  /**
   * Notifications visible to a member, oldest first from `since` (ms, inclusive).
   * `includeCompanyWide`: administrators and dispatchers also see company-wide rows (member null).
   */
  async list(
    companyId: string,
    memberId: string,
    opts: { since: number; limit: number; includeCompanyWide: boolean },
  ): Promise<NotificationView[]> {
    const rows: NotificationView[] = await this.dataSource.query(
      `SELECT id, kind, member_id AS "memberUid", job_id AS "jobId", ts::float8 AS ts
         FROM notifications
        WHERE company_id = $1 AND ts >= $2
          AND (member_id = $3 OR ($4 AND member_id IS NULL))
        ORDER BY ts, id
        LIMIT $5`,
      [companyId, opts.since, memberId, opts.includeCompanyWide, opts.limit],
    );
    return rows;
  }
}
