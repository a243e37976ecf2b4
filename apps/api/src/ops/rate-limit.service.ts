import { AppConfig, AuthContext, createRedis, DomainError, RateLimitedError, RedisClient } from '@app/core';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';

const WINDOW_MS = 60_000;

/**
 * The library's storage with its own Lua script sent as EVALSHA (ioredis `defineCommand`, which
 * falls back to EVAL once when Redis lacks the script) instead of EVAL with the ~800-byte source on
 * every request: a CPU profile of `/osmand` showed writing that string among the api's largest
 * costs, and Redis hashes it each time. Keys, arguments and the answer's checks are the library's
 * `increment` (v1.2.0), unchanged.
 */
class ThrottlerStorageRedisSha extends ThrottlerStorageRedisService {
  constructor(redis: RedisClient) {
    // the library takes a Redis or a Cluster alike (one constructor overload per type)
    super(redis as Redis);
    redis.defineCommand('throttlerIncrement', { numberOfKeys: 2, lua: this.scriptSrc });
  }

  override async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const hitKey = `{${key}:${throttlerName}}:hits`;
    const blockKey = `{${key}:${throttlerName}}:blocked`;
    const redis = this.redis as unknown as { throttlerIncrement(...args: Array<string | number>): Promise<unknown> };
    const results = await redis.throttlerIncrement(hitKey, blockKey, throttlerName, ttl, limit, blockDuration);
    if (!Array.isArray(results) || !results.every((v) => typeof v === 'number') || results.length !== 4) {
      throw new TypeError(`Expected result to be an array of 4 numbers, got ${String(results)}`);
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = results as number[];
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}
/** A limiter that can't answer within this lets the request through (fails open, logged). */
const DECISION_TIMEOUT_MS = 250;

/**
 * Rate limits counted in Redis, so every api instance shares one budget (CONTRACTS.md, "Errors"):
 * `RATE_LIMIT_PER_MINUTE` per API key, charged after the key is verified; failed and missing
 * authentications charged to the client IP (`RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE`). Counting is
 * @nest-lab/throttler-storage-redis (the @nestjs/throttler storage contract: a fixed window, then
 * blocked for a window). If Redis is unavailable the limiter fails open. On Redis Cluster a key's two
 * counters share the hash tag `{<QUEUE_PREFIX>:ratelimit:<subject>:minute}` (the library's key shape),
 * so its script runs on one slot, and subjects spread over the masters.
 */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly storage: ThrottlerStorageRedisService;
  private readonly redis: RedisClient;
  private lastWarning = 0;

  constructor(private readonly config: AppConfig) {
    this.redis = createRedis(config, 'rate-limit');
    this.redis.on('error', () => undefined); // reported through failed decisions
    this.storage = new ThrottlerStorageRedisSha(this.redis);
  }

  /**
   * Runs an authentication with the limits applied: a failure is charged to the client IP (and
   * answers 429 instead once the IP's budget is spent), a success to its key.
   * @param ip the client IP, asked only on a failure (Express' `req.ip` walks `X-Forwarded-For`
   *   through the trust-proxy rule: about 1 % of the api's CPU when asked on every request)
   */
  async authenticated(ip: () => string | undefined, authenticate: () => Promise<AuthContext>): Promise<AuthContext> {
    let ctx: AuthContext;
    try {
      ctx = await authenticate();
    } catch (err) {
      if (err instanceof DomainError) await this.chargeIp(ip() ?? 'unknown');
      throw err;
    }
    await this.chargeKey(ctx.keyPrefix);
    return ctx;
  }

  /** Charges one request to an API key (its public prefix). @throws RateLimitedError past the budget. */
  chargeKey(prefix: string): Promise<void> {
    return this.charge(`key:${prefix}`, this.config.RATE_LIMIT_PER_MINUTE);
  }

  /**
   * Charges one `/osmand` request to a device id (case-insensitive, as devices are looked up) with
   * the per-key budget. @throws RateLimitedError past the budget.
   */
  chargeDevice(deviceId: string): Promise<void> {
    return this.charge(`device:${deviceId.toLowerCase()}`, this.config.RATE_LIMIT_PER_MINUTE);
  }

  /** Charges one unauthenticated request to a client IP. @throws RateLimitedError past the budget. */
  chargeIp(ip: string): Promise<void> {
    return this.charge(`ip:${ip}`, this.config.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE);
  }

  private async charge(subject: string, limit: number): Promise<void> {
    let record;
    let timer: NodeJS.Timeout | undefined;
    try {
      record = await Promise.race([
        this.storage.increment(`${this.config.QUEUE_PREFIX}:ratelimit:${subject}`, WINDOW_MS, limit, WINDOW_MS, 'minute'),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('rate limiter timed out')), DECISION_TIMEOUT_MS).unref();
        }),
      ]);
    } catch (err) {
      if (Date.now() - this.lastWarning > 30_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`rate limiter unavailable, letting requests through: ${(err as Error).message}`);
      }
      return;
    } finally {
      // every request charges: a timer left to fire would build an Error (a stack trace) 250 ms later
      clearTimeout(timer);
    }
    if (record.isBlocked) {
      throw new RateLimitedError(
        `rate limit reached (${limit} requests per minute); retry after ${record.timeToBlockExpire} s`,
        Math.max(1, record.timeToBlockExpire),
      );
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
