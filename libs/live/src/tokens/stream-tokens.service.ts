import { createHash, randomBytes } from 'node:crypto';
import { AppConfig, createRedis, DomainError, RedisClient } from '@app/core';
import { Injectable, OnModuleDestroy } from '@nestjs/common';

/** A token as `createstreamtoken` answers it: `expiresAt` ms. */
export interface IssuedStreamToken {
  token: string;
  expiresAt: number;
}

/** `st_` + 32 random bytes, base64url. */
const TOKEN_FORMAT = /^st_[A-Za-z0-9_-]{43}$/;

/**
 * Short-lived stream tokens (CONTRACTS.md "Wave 3: live stream"): an `EventSource` can't send the
 * `API-Key` header, so a client asks `createstreamtoken` for a token and passes it as `?token=`. A
 * token is random, starts streams of its member until it expires (`STREAM_TOKEN_TTL_MS`, 60 s), and is
 * kept in Redis — every api instance shares them — only as its SHA-256, with the public prefix of the
 * API key it was created with (the stream re-checks that key: a revoked key or deactivated member
 * can't stream, and the stream is charged to the key's rate budget).
 */
@Injectable()
export class StreamTokens implements OnModuleDestroy {
  private redis?: RedisClient;

  constructor(private readonly config: AppConfig) {}

  /** A new token for the key `keyPrefix`. */
  async issue(keyPrefix: string): Promise<IssuedStreamToken> {
    const token = `st_${randomBytes(32).toString('base64url')}`;
    const ttl = this.config.STREAM_TOKEN_TTL_MS;
    const expiresAt = Date.now() + ttl;
    await this.client().set(this.key(token), keyPrefix, 'PX', ttl);
    return { token, expiresAt };
  }

  /**
   * The key prefix a token was created with.
   * @throws DomainError unauthenticated for a malformed, unknown or expired token.
   */
  async keyPrefixOf(token: string): Promise<string> {
    if (!TOKEN_FORMAT.test(token)) throw new DomainError('unauthenticated', 'invalid stream token');
    const prefix = await this.client().get(this.key(token));
    if (!prefix) throw new DomainError('unauthenticated', 'invalid or expired stream token');
    return prefix;
  }

  private key(token: string): string {
    return `${this.config.QUEUE_PREFIX}:stream-token:${createHash('sha256').update(token).digest('hex')}`;
  }

  private client(): RedisClient {
    this.redis ??= createRedis(this.config, 'stream-tokens');
    return this.redis;
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
