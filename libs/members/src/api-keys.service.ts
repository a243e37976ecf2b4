import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfig, AuthContext, DomainError, newId, normalizeRole, randomBase62 } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeyListing, ApiKeysRepository } from './api-keys.repository';
import { MembersRepository } from './members.repository';

/** `fwk_<8 base62>_<32 base62>`; the public prefix is `fwk_<8 base62>` (CONTRACTS.md). */
const KEY_FORMAT = /^(fwk_[0-9A-Za-z]{8})_[0-9A-Za-z]{32}$/;

export interface IssuedKey {
  memberUid: string;
  /** The whole key: shown once, never stored. */
  apiKey: string;
  prefix: string;
}

export type { ApiKeyListing } from './api-keys.repository';

/**
 * API keys: issue, revoke, list, and authenticate a request. A key is stored as its prefix plus
 * HMAC-SHA-256(pepper, key), found by prefix and compared in constant time — never a slow password
 * hash, so authentication costs one indexed query.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly members: MembersRepository,
    private readonly config: AppConfig,
  ) {}

  private hash(key: string): string {
    return createHmac('sha256', this.config.API_KEY_PEPPER).update(key).digest('hex');
  }

  /**
   * Issues a key for an active member (by username, case-insensitive, or by id with `manager`).
   * @throws DomainError not_found when no active member has that username.
   */
  async issue(username: string, label = '', manager?: EntityManager): Promise<IssuedKey> {
    const member = await this.members.activeByUsername(username, manager);
    if (!member) throw new DomainError('not_found', `no active member with username ${username}`);
    const prefix = `fwk_${randomBase62(8)}`;
    const apiKey = `${prefix}_${randomBase62(32)}`;
    await this.keys.insert(
      { id: newId(), prefix, keyHash: this.hash(apiKey), companyId: member.company_id, memberId: member.id, label },
      manager,
    );
    return { memberUid: member.id, apiKey, prefix };
  }

  /** Revokes the key with this prefix. @returns false when no live key has it. */
  revoke(prefix: string): Promise<boolean> {
    return this.keys.revokeByPrefix(prefix);
  }

  /** Keys of a member (by username), newest first; never the key itself. */
  list(username: string): Promise<ApiKeyListing[]> {
    return this.keys.listByUsername(username);
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
    const row = await this.keys.authRowByPrefix(match[1]);
    const presented = Buffer.from(this.hash(key), 'hex');
    // compare even when the prefix is unknown, so timing doesn't tell prefixes apart
    const stored = Buffer.from(row?.key_hash ?? '0'.repeat(64), 'hex');
    const equal = timingSafeEqual(presented, stored);
    if (!row || !equal) throw new DomainError('unauthenticated', 'invalid or revoked API key');
    assertLive(row);
    if (usr !== undefined && usr.toLowerCase() !== row.username.toLowerCase()) {
      throw new DomainError('auth_mismatch', 'auth.usr does not match the API key');
    }
    return contextOf(row, match[1]);
  }

  /**
   * The caller of a key already proven by other means (a stream token made with it, which holds only
   * the key's public prefix): the key must still be live and its member active.
   * @throws DomainError unauthenticated for an unknown or revoked key or a deactivated member.
   */
  async authenticatePrefix(prefix: string): Promise<AuthContext> {
    const row = await this.keys.authRowByPrefix(prefix);
    if (!row) throw new DomainError('unauthenticated', 'invalid or revoked API key');
    assertLive(row);
    return contextOf(row, prefix);
  }
}

/** A key's row as authentication reads it. */
type AuthRow = NonNullable<Awaited<ReturnType<ApiKeysRepository['authRowByPrefix']>>>;

/** @throws DomainError unauthenticated for a revoked key or a deactivated member. */
function assertLive(row: AuthRow): void {
  if (row.revoked_at !== null) throw new DomainError('unauthenticated', 'invalid or revoked API key');
  if (row.active_status !== 'active') throw new DomainError('unauthenticated', 'the member of this API key is deactivated');
}

/** The caller of a live key's row, `prefix` its public prefix. */
function contextOf(row: AuthRow, prefix: string): AuthContext {
  return {
    companyId: row.company_id,
    memberId: row.member_id,
    username: row.username,
    role: normalizeRole(row.role)!,
    isOwner: row.owner_member_id === row.member_id,
    keyPrefix: prefix,
    timezone: row.timezone,
    settings: {
      workers_edit_job: row.workers_edit_job,
      workers_create_places: row.workers_create_places,
      workers_view_places: row.workers_view_places,
    },
  };
}
