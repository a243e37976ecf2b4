import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Places: the lookups other domains need (jobs check `placeUid` here). */
@Injectable()
export class PlacesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Which of `ids` are places of the company (another company's places are unknown ids).
   * @returns the subset of `ids` that exist, as a set; empty for no ids (without a query).
   */
  async existingIds(companyId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await query<{ id: string }>(this.dataSource, `SELECT id FROM places WHERE company_id = $1 AND id = ANY($2::text[])`, [
      companyId,
      [...ids],
    ]);
    return new Set(rows.map((r) => r.id));
  }
}
