import { ReplicaReads } from '@app/core';
import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DrainState } from './drain-state.service';
import { RedisProbe } from './redis-probe.service';

/**
 * `GET /health/live`: the process is up. `GET /health/ready`: PostgreSQL reachable and the instance
 * not draining; Redis' state, the worker heartbeat's age and, with `DATABASE_REPLICA_URL`, the read
 * replica's state are reported, never required (CONTRACTS.md, "Operations"; docs/scaling.md).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly drain: DrainState,
    private readonly redis: RedisProbe,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly replica: ReplicaReads,
  ) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready() {
    const [reported, checked] = await Promise.all([
      this.reported(),
      this.health
        .check([
          () => {
            const i = this.indicators.check('instance');
            return this.drain.draining ? i.down({ draining: true }) : i.up({ draining: false });
          },
          () => this.db.pingCheck('database', { timeout: 1500 }),
        ])
        .then((result) => ({ ok: true as const, result }))
        .catch((err: unknown) => {
          if (err instanceof ServiceUnavailableException) return { ok: false as const, result: err.getResponse() };
          throw err;
        }),
    ]);
    const body = { ...(checked.result as object), reported };
    if (!checked.ok) throw new ServiceUnavailableException(body);
    return body;
  }

  /**
   * Redis, worker and read replica state: reported, not required. `replica` (only with
   * `DATABASE_REPLICA_URL`): `{state: up|down, replayLsn, downForMs, reason?}`, asked now unless
   * the replica is marked down (then as last seen: routed reads go to the primary meanwhile).
   */
  private async reported() {
    const [redis, replica] = await Promise.all([this.redis.state(), this.replica.check()]);
    let worker: { heartbeatAgeMs: number | null; running: number } | { error: string };
    try {
      const [row] = await this.dataSource.query(
        `SELECT (floor(extract(epoch from clock_timestamp()) * 1000) - max(beat_at))::float8 AS age, count(*)::int AS running
           FROM worker_heartbeats WHERE stopped_at IS NULL`,
      );
      worker = { heartbeatAgeMs: row.age === null ? null : Math.max(0, Math.round(row.age)), running: row.running };
    } catch (err) {
      worker = { error: (err as Error).message };
    }
    return replica ? { redis, worker, replica } : { redis, worker };
  }
}
