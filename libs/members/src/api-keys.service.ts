import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfig, AuthContext, DomainError, newId, normalizeRole, preparedQuery, randomBase62, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** `fwk_<8 base62>_<32 base62>`; the public prefix is `fwk_<8 base62>` (CONTRACTS.md). */
const KEY_FORMAT = /^(fwk_[0-9A-Za-z]{8})_[0-9A-Za-z]{32}$/;

export interface IssuedKey {
  memberUid: string;
  /** The whole key: shown once, never stored. */
  apiKey: string;
  prefix: string;
}

export interface ApiKeyListing {
  prefix: string;
  label: string;
  /** ms */
  createdAt: number;
  revokedAt: number | null;
}

/**
 * API keys: issue, revoke, list, and authenticate a request. A key is stored as its prefix plus
 * HMAC-SHA-256(pepper, key), found by prefix and compared in constant time — never a slow password
 * hash, so authentication costs one indexed query.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  private hash(key: string): string {
    return createHmac('sha256', this.config.API_KEY_PEPPER).update(key).digest('hex');
  }

  /**
   * Issues a key for an active member (by username, case-insensitive, or by id with `manager`).
   * @throws DomainError not_found when no active member has that username.
   */
  async issue(username: string, label = '', manager: EntityManager = this.dataSource.manager): Promise<IssuedKey> {
    const rows: Array<{ id: string; company_id: string }> = await manager.query(
      `SELECT id, company_id FROM members WHERE lower(username) = lower($1) AND active_status = 'active'`,
      [username],
    );
    if (!rows.length) throw new DomainError('not_found', `no active member with username ${username}`);
    const prefix = `fwk_${randomBase62(8)}`;
    const apiKey = `${prefix}_${randomBase62(32)}`;
    await manager.query(
      `INSERT INTO api_keys (id, prefix, key_hash, company_id, member_id, label, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, ${SQL_NOW_MS})`,
      [newId(), prefix, this.hash(apiKey), rows[0].company_id, rows[0].id, label],
    );
    return { memberUid: rows[0].id, apiKey, prefix };
  }

  /** Revokes the key with this prefix. @returns false when no live key has it. */
  async revoke(prefix: string): Promise<boolean> {
    const res: [unknown[], number] = await this.dataSource.query(
      `UPDATE api_keys SET revoked_at = ${SQL_NOW_MS} WHERE prefix = $1 AND revoked_at IS NULL`,
      [prefix],
    );
    return res[1] > 0;
  }

  /** Keys of a member (by username), newest first; never the key itself. */
  async list(username: string): Promise<ApiKeyListing[]> {
    return this.dataSource.query(
      `SELECT k.prefix, k.label, k.created_at::float8 AS "createdAt", k.revoked_at::float8 AS "revokedAt"
         FROM api_keys k JOIN members m ON m.id = k.member_id
        WHERE lower(m.username) = lower($1)
        ORDER BY k.created_at DESC, k.prefix`,
      [username],
    );
  }

  /** Revokes every key of a member, in the caller's transaction (deactivation). */
  async revokeAllOf(manager: EntityManager, memberId: string): Promise<void> {
    await manager.query(`UPDATE api_keys SET revoked_at = ${SQL_NOW_MS} WHERE member_id = $1 AND revoked_at IS NULL`, [memberId]);
  }

  /**
   * Authenticates a request's key (CONTRACTS.md, "Auth failures").
   * @param usr the body-style `auth.usr`, when sent: must name the key's member.
   * @throws DomainError unauthenticated (-2) for a malformed, unknown, wrong or revoked key or a
   *   deactivated member; auth_mismatch (-3) when `usr` is not the key's member.
   */
  async authenticate(key: string, usr?: string): Promise<AuthContext> {
    const match = KEY_FORMAT.exec(key);
    if (!match) throw new DomainError('unauthenticated', 'invalid API key');
    const rows: Array<{
      key_hash: string;
      revoked_at: string | null;
      member_id: string;
      username: string;
      role: string;
      active_status: string;
      company_id: string;
      owner_member_id: string | null;
      timezone: string;
      workers_edit_job: boolean;
      workers_create_places: boolean;
      workers_view_places: boolean;
    }> = await preparedQuery(
      this.dataSource,
      // every call authenticates: planned once per connection
      'fieldwork_authenticate',
      `SELECT k.key_hash, k.revoked_at, m.id AS member_id, m.username, m.role, m.active_status,
              c.id AS company_id, c.owner_member_id, c.timezone,
              c.workers_edit_job, c.workers_create_places, c.workers_view_places
         FROM api_keys k
         JOIN members m ON m.id = k.member_id
         JOIN companies c ON c.id = k.company_id
        WHERE k.prefix = $1`,
      [match[1]],
    );
    const row = rows[0];
    const presented = Buffer.from(this.hash(key), 'hex');
    // compare even when the prefix is unknown, so timing doesn't tell prefixes apart
    const stored = Buffer.from(row?.key_hash ?? '0'.repeat(64), 'hex');
    const equal = timingSafeEqual(presented, stored);
    if (!row || !equal || row.revoked_at !== null) throw new DomainError('unauthenticated', 'invalid or revoked API key');
    if (row.active_status !== 'active') throw new DomainError('unauthenticated', 'the member of this API key is deactivated');
    if (usr !== undefined && usr.toLowerCase() !== row.username.toLowerCase()) {
      throw new DomainError('auth_mismatch', 'auth.usr does not match the API key');
    }
    return {
      companyId: row.company_id,
      memberId: row.member_id,
      username: row.username,
      role: normalizeRole(row.role)!,
      isOwner: row.owner_member_id === row.member_id,
      keyPrefix: match[1],
      timezone: row.timezone,
      settings: {
        workers_edit_job: row.workers_edit_job,
        workers_create_places: row.workers_create_places,
        workers_view_places: row.workers_view_places,
      },
    };
  }
}
