import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newId } from '../ids';
import { query, Queryable } from '../database/query';
import { SQL_NOW_MS } from '../time';

/** A notification as `getnotifications` answers it. */
export interface NotificationView {
  id: string;
  kind: string;
  memberUid: string | null;
  jobId: string | null;
  /** ms */
  ts: number;
}

/** Every SQL statement on `notifications`, scoped by company. `ts` is ms, database clock. */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts one notification (`memberId` null = company-wide) with a new id, at the database's now, in
   * `db` (the caller's transaction). @returns it as `getnotifications` answers it.
   */
  async insert(
    db: Queryable,
    n: { companyId: string; memberId: string | null; kind: string; jobId: string | null },
  ): Promise<NotificationView> {
    const [row] = await query<NotificationView>(
      db,
      `INSERT INTO notifications (id, company_id, member_id, kind, job_id, ts) VALUES ($1, $2, $3, $4, $5, ${SQL_NOW_MS})
       RETURNING id, kind, member_id AS "memberUid", job_id AS "jobId", ts::float8 AS ts`,
      [newId(), n.companyId, n.memberId, n.kind, n.jobId],
    );
    return row;
  }

  /**
   * The company's notifications to `memberId` — and, with `includeCompanyWide`, the company-wide ones
   * (member null) — with `ts` ≥ `since` (ms, inclusive), oldest first (ties by id), at most `limit`.
   */
  list(
    companyId: string,
    memberId: string,
    opts: { since: number; limit: number; includeCompanyWide: boolean },
  ): Promise<NotificationView[]> {
    return query<NotificationView>(
      this.dataSource,
      `SELECT id, kind, member_id AS "memberUid", job_id AS "jobId", ts::float8 AS ts
         FROM notifications
        WHERE company_id = $1 AND ts >= $2
          AND (member_id = $3 OR ($4 AND member_id IS NULL))
        ORDER BY ts, id
        LIMIT $5`,
      [companyId, opts.since, memberId, opts.includeCompanyWide, opts.limit],
    );
  }
}
