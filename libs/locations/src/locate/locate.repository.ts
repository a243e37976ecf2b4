import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** `locate`'s writes of `member_locations` (its reads come from {@link MembersLocateRead}). */
@Injectable()
export class LocateRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records a pending ping (`ping_requested_at` = `now`, ms) for each of the company's `memberIds`,
   * inserting a member's `member_locations` row when it has none.
   */
  async requestPing(companyId: string, memberIds: readonly string[], now: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO member_locations (company_id, member_id, ping_requested_at, updated_at)
       SELECT $1, id, $3, $3 FROM unnest($2::varchar[]) AS id
       ON CONFLICT (company_id, member_id) DO UPDATE SET ping_requested_at = EXCLUDED.ping_requested_at`,
      [companyId, memberIds, now],
    );
  }
}
