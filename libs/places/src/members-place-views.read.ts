import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PlaceRow, PlaceView, toPlaceRowView } from './place-view';

/**
 * The columns of `places p` every place read selects (with `creatorId`; the creator's name is joined
 * after, by {@link PLACE_CREATOR_NAME_SQL}). bigint columns are cast to float8 so `pg` answers numbers;
 * the position is read as `lat`/`lng` degrees.
 */
export const PLACE_FIELDS_SQL = `p.id, p.name, p.address, p.city, p.state, p.postalcode, p.country_code AS "countryCode",
  p.phone, p.email, ST_Y(p.location::geometry) AS lat, ST_X(p.location::geometry) AS lng, p.radius, p.color,
  p.linked_forms AS "linkedForms", p.data, p.teams, p.created_at::float8 AS "createdAt", p.updated_at::float8 AS "updatedAt",
  p.creator_id AS "creatorId"`;

/**
 * The creator's name of a row `k` with {@link PLACE_FIELDS_SQL}, for the company `$1`, as a select
 * item (`"creatorName"`): one primary-key lookup per row. (A join let the planner hash every member of
 * the company for each read — 5,000 members cost ~2 ms before the first place.) A documented read
 * model across domains: `members` (owned by `@app/members`) is read for `name` only, scoped by the
 * company (docs/places-and-geo.md).
 */
export const PLACE_CREATOR_NAME_SQL = `(SELECT m.name FROM members m WHERE m.id = k."creatorId" AND m.company_id = $1) AS "creatorName"`;

/**
 * Place views by id: `places` (this lib's) with the creator's name from `members` (owned by
 * `@app/members`: `name` only, by id within the company — {@link PLACE_CREATOR_NAME_SQL}), in one
 * statement. The answers of createplace and editplace, and `PlacesService.placeViews` for other
 * domains (a check-in event's `place`, a report row).
 */
@Injectable()
export class PlaceViewsReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The company's places among `ids` (soft-deleted ones too; another company's ids absent), each once,
   * in no particular order.
   * @param db the caller's transaction, when it has one
   */
  async byIds(companyId: string, ids: readonly string[], db: Queryable = this.dataSource): Promise<PlaceView[]> {
    if (!ids.length) return [];
    const rows = await query<PlaceRow>(
      db,
      `SELECT k.*, ${PLACE_CREATOR_NAME_SQL} FROM (SELECT ${PLACE_FIELDS_SQL} FROM places p WHERE p.company_id = $1 AND p.id = ANY($2::text[])) k`,
      [companyId, [...new Set(ids)]],
    );
    return rows.map(toPlaceRowView);
  }
}
