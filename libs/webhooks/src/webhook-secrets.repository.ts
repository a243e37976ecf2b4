import { query, queryOne } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A company's stored signing secrets. */
export interface StoredSecrets {
  secret: string;
  previousSecret: string | null;
  /** ms until which `previousSecret` also signs */
  previousExpiresAt: number | null;
}

/** The SQL of `webhook_secrets`: one row per company (its newest secret and the previous one while it overlaps). */
@Injectable()
export class WebhookSecretsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The company's secrets, or undefined when it has none yet. */
  async find(companyId: string): Promise<StoredSecrets | undefined> {
    return queryOne<StoredSecrets>(
      this.dataSource,
      `SELECT secret, previous_secret AS "previousSecret", previous_expires_at::float8 AS "previousExpiresAt"
         FROM webhook_secrets WHERE company_id = $1`,
      [companyId],
    );
  }

  /** Stores `secret` as the company's first secret unless it already has one (concurrent callers: the first wins). */
  async insertIfMissing(companyId: string, secret: string, now: number): Promise<void> {
    await query(
      this.dataSource,
      `INSERT INTO webhook_secrets (company_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (company_id) DO NOTHING`,
      [companyId, secret, now],
    );
  }

  /**
   * Makes `secret` the newest and the one it replaces the previous, signing until `previousExpiresAt`
   * (ms). One statement, so concurrent rotations chain (each one's previous is the last one's new).
   * @returns false when the company has no secret row (call {@link insertIfMissing} first).
   */
  async rotate(companyId: string, secret: string, previousExpiresAt: number): Promise<boolean> {
    const rows = await query<{ companyId: string }>(
      this.dataSource,
      `UPDATE webhook_secrets SET previous_secret = secret, secret = $2, previous_expires_at = $3 WHERE company_id = $1
       RETURNING company_id AS "companyId"`,
      [companyId, secret, previousExpiresAt],
    );
    return rows.length > 0;
  }
}
