import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Place } from './entities/place.entity';
import { escapeLike } from './locations-nearest-places.read';
import { PLACE_FIELDS_SQL } from './members-place-views.read';
import { PlaceRow } from './place-view';

/** The columns of `places` a write may set, by the wire field that carries them. */
export type PlacePatch = Partial<
  Pick<
    Place,
    | 'name'
    | 'location'
    | 'radius'
    | 'address'
    | 'city'
    | 'state'
    | 'postalcode'
    | 'countryCode'
    | 'phone'
    | 'email'
    | 'color'
    | 'linkedForms'
    | 'teams'
    | 'data'
  >
>;

/** What `GET /v1/places` reads ({@link PlacesRepository.connectorPage}), after validation and the caller's visibility. */
export interface ConnectorPlacesFilter {
  companyId: string;
  /** case-insensitive substring of the name (matched literally: `%` and `_` are no wildcards) */
  query?: string;
  /** ms, inclusive, on `updated_at` (else `created_at`) */
  updatedSince?: number;
  /** only places sharing one of these teams (a worker without `workers_view_places`) */
  teams?: readonly number[];
  limit: number;
  skip: number;
}

/**
 * Every SQL statement on the `places` table alone, one method per purpose, over the caller's
 * transaction (`db`) or the pool; every statement is scoped by `company_id`. "Live" means not
 * soft-deleted (`deleted_at IS NULL`). The reads that join other domains' tables are read models:
 * `members-place-views.read.ts` (views by id), `locations-nearest-places.read.ts` (getplaces) and
 * `members-place-at.read.ts` (the place at a position).
 */
@Injectable()
export class PlacesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** Which of `ids` are live places of the company (no query for no ids). */
  async liveIds(companyId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await query<{ id: string }>(
      this.dataSource,
      `SELECT id FROM places WHERE company_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL`,
      [companyId, [...ids]],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Inserts a place. */
  async insert(
    place: PlacePatch & { id: string; companyId: string; name: string; teams: number[]; creatorId: string; createdAt: number },
  ): Promise<void> {
    await this.dataSource.getRepository(Place).insert(place);
  }

  /** Sets the fields of `patch`, and `updated_at` = `now`, on the company's places among `ids`. */
  async update(db: EntityManager, companyId: string, ids: readonly string[], patch: PlacePatch, now: number): Promise<void> {
    await db.getRepository(Place).update({ companyId, id: In([...ids]) }, { ...patch, updatedAt: now });
  }

  /** Soft-deletes the company's places among `ids` (`deleted_at` = `updated_at` = `now`). */
  async softDelete(db: Queryable, companyId: string, ids: readonly string[], now: number): Promise<void> {
    await query(db, `UPDATE places SET deleted_at = $3, updated_at = $3 WHERE company_id = $1 AND id = ANY($2::text[])`, [
      companyId,
      [...ids],
      now,
    ]);
  }

  /**
   * Locks (`FOR UPDATE`, in id order) the company's live places among `ids` — only those listing one
   * of `teams` when given (a worker restricted to its teams' places).
   * @returns the ids found
   */
  async lockLive(db: Queryable, companyId: string, ids: readonly string[], teams?: readonly number[]): Promise<Set<string>> {
    const params: unknown[] = [companyId, [...ids]];
    let teamFilter = '';
    if (teams) {
      params.push([...teams]);
      teamFilter = `AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(teams) t WHERE t::int = ANY($3::int[]))`;
    }
    const rows = await query<{ id: string }>(
      db,
      `SELECT id FROM places WHERE company_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL ${teamFilter} ORDER BY id FOR UPDATE`,
      params,
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * `GET /v1/places`' page: the company's live places, newest change first — by `updated_at` (the
   * creation time when never edited), then id, both descending — matching the filters, `skip` rows
   * left out, at most `limit`. The creator's name is not read (`creatorName` null): the connector's
   * place has none.
   */
  async connectorPage(f: ConnectorPlacesFilter): Promise<PlaceRow[]> {
    const params: unknown[] = [f.companyId, f.limit, f.skip];
    const filters: string[] = [];
    if (f.query !== undefined && f.query !== '') {
      params.push(`%${escapeLike(f.query)}%`);
      filters.push(`p.name ILIKE $${params.length} ESCAPE '\\'`);
    }
    if (f.updatedSince !== undefined) {
      params.push(f.updatedSince);
      filters.push(`COALESCE(p.updated_at, p.created_at) >= $${params.length}`);
    }
    if (f.teams) {
      params.push([...f.teams]);
      filters.push(`EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.teams) t WHERE t::int = ANY($${params.length}::int[]))`);
    }
    const where = ['p.company_id = $1', 'p.deleted_at IS NULL', ...filters].join(' AND ');
    const rows = await query<Omit<PlaceRow, 'creatorName'>>(
      this.dataSource,
      `SELECT ${PLACE_FIELDS_SQL} FROM places p WHERE ${where}
        ORDER BY COALESCE(p.updated_at, p.created_at) DESC, p.id DESC LIMIT $2 OFFSET $3`,
      params,
    );
    return rows.map((r) => ({ ...r, creatorName: null }));
  }

  /** Which of `teamIds` a live place of the company lists in its `teams` (editcompany's check). */
  async teamsInUse(db: Queryable, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      db,
      `SELECT DISTINCT t::int AS team FROM places r, jsonb_array_elements_text(r.teams) t
        WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
