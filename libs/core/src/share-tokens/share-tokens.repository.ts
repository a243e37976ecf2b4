import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { query, Queryable, queryOne } from '../database/query';

/** What a public share token opens: a track link (`track_shares`) or a distributejobs map (`cluster_maps`). */
export type ShareTokenKind = 'track' | 'cluster';

/** The unique violation inserting a token raises when it is taken (by any company, either kind). */
export const SHARE_TOKEN_TAKEN = 'PK_share_tokens';

/**
 * The global lookup table `share_tokens`: a public share token (unique across the platform; primary
 * key) → the company whose per-company row it names, and that row's kind (CONTRACTS.md "Wave 3:
 * scale", global lookups). The owners of the per-company rows (`track_shares` in `@app/locations`,
 * `cluster_maps` in `@app/dispatch`) call {@link insert} and {@link delete} with their own transaction
 * `db`, so a token's lookup row and its row come and go together; a share page finds the company
 * with {@link companyOf} first, then its row by `(company_id, token)`.
 */
@Injectable()
export class ShareTokensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts `token`'s lookup row, in the caller's transaction (before the row it names).
   * @throws QueryFailedError unique violation {@link SHARE_TOKEN_TAKEN} when the token is taken
   */
  async insert(db: Queryable, token: string, companyId: string, kind: ShareTokenKind): Promise<void> {
    await query(db, `INSERT INTO share_tokens (token, company_id, kind) VALUES ($1, $2, $3)`, [token, companyId, kind]);
  }

  /** Deletes the lookup rows of `tokens` of `kind`, in the caller's transaction (with the rows they name). @returns how many */
  async delete(db: Queryable, kind: ShareTokenKind, tokens: readonly string[]): Promise<number> {
    if (!tokens.length) return 0;
    const rows = await query<{ token: string }>(
      db,
      `DELETE FROM share_tokens WHERE token = ANY($1::varchar[]) AND kind = $2 RETURNING token`,
      [[...tokens], kind],
    );
    return rows.length;
  }

  /** The company of a token of `kind`; undefined for an unknown token (or one of the other kind). */
  async companyOf(token: string, kind: ShareTokenKind, db: Queryable = this.dataSource): Promise<string | undefined> {
    const row = await queryOne<{ company_id: string }>(db, `SELECT company_id FROM share_tokens WHERE token = $1 AND kind = $2`, [
      token,
      kind,
    ]);
    return row?.company_id;
  }
}
