import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * What a rule names, read where it lives (a documented read model, docs/alerts.md): a live place of
 * the company (`places`, owned by `@app/places`) and a live zone with its `danger` flag (`zones`,
 * owned by `@app/zones`) — a read of one or two columns each, in the caller's transaction when
 * given one (editalert), else on the pool. Another company's rows are unknown ids.
 */
@Injectable()
export class PlacesZonesRefsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whether `placeId` is a live (not deleted) place of the company. */
  async livePlace(companyId: string, placeId: string, db: Queryable = this.dataSource): Promise<boolean> {
    const rows = await query<{ id: string }>(db, `SELECT id FROM places WHERE company_id = $1 AND id = $2 AND deleted_at IS NULL`, [
      companyId,
      placeId,
    ]);
    return rows.length > 0;
  }

  /** The live (not deleted) zone `zoneId` of the company, or undefined. */
  async liveZone(companyId: string, zoneId: string, db: Queryable = this.dataSource): Promise<{ danger: boolean } | undefined> {
    const [zone] = await query<{ danger: boolean }>(db, `SELECT danger FROM zones WHERE company_id = $1 AND id = $2 AND deleted_at IS NULL`, [
      companyId,
      zoneId,
    ]);
    return zone;
  }
}
