import { AppConfig, TaskProducer } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from './metrics.registry';

/** BullMQ job states reported per queue. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** The open delivery states (the finished ones show as attempt outcomes). */
const OPEN_DELIVERY_STATES = ['pending', 'in_flight'];
const ATTEMPT_OUTCOMES = ['delivered', 'retry', 'abandoned', 'disabled', 'rescheduled'];
/**
 * Attempt outcomes and delivery latency are read over attempts started within this window (ms):
 * through the attempts' `started_at` index, so a scrape never scans the retained history.
 */
const WINDOW_MS = 3_600_000;
/** A read of shared state that takes longer counts as failed (a Redis or database outage must not hang `/metrics`). */
const READ_TIMEOUT_MS = 2_000;
const SQL_NOW_MS = `floor(extract(epoch from clock_timestamp()) * 1000)`;

/** One read of the shared state; a part is `undefined` when its read failed. */
export interface SharedState {
  queues?: Array<{ queue: string; counts: Record<string, number> }>;
  /** open deliveries by state (pending, in_flight) */
  deliveries?: Record<string, number>;
  /** attempts started in the last hour by outcome */
  attempts?: Record<string, number>;
  disabledEndpoints?: number;
  /** seconds, by quantile; empty when nothing was delivered in the window */
  latency?: Record<string, number>;
  /** seconds since the newest worker heartbeat; null when no worker ever ran */
  heartbeatAge?: number | null;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Empties a gauge without labels (`reset()` alone leaves it at 0): it is absent until set. */
const clear = (gauge: Gauge) => {
  gauge.reset();
  gauge.remove();
};

const countsBy = (rows: Array<{ k: string; n: number }>, known: string[]): Record<string, number> => {
  const out: Record<string, number> = Object.fromEntries(known.map((k) => [k, 0]));
  for (const row of rows) out[row.k] = row.n;
  return out;
};

/**
 * Queue depths, delivery outcomes and the worker heartbeat as gauges read on scrape from shared
 * state (BullMQ counts in Redis; the delivery, attempt, endpoint and heartbeat tables), so every
 * api instance reports the same figures and the worker needs no HTTP. One read serves all gauges
 * and is cached for `METRICS_CACHE_MS` (default 10 s).
 */
@Injectable()
export class SharedStateMetrics {
  private readonly ttlMs: number;
  private cached?: { at: number; state: SharedState };
  private inflight?: Promise<SharedState>;
  private readonly collectErrors: Counter<'source'>;

  constructor(
    metrics: MetricsRegistry,
    private readonly producer: TaskProducer,
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.ttlMs = config.METRICS_CACHE_MS;
    const registers = [metrics.registry];
    const read = () => this.state();

    this.collectErrors = new Counter({
      name: 'fieldwork_metrics_collect_errors_total',
      help: 'Failed or timed-out reads of shared state while collecting metrics, by source',
      labelNames: ['source'] as const,
      registers,
      // the scrape's own read first, so its failures show in the same scrape
      async collect() {
        await read();
      },
    });

    new Gauge({
      name: 'fieldwork_queue_jobs',
      help: 'BullMQ jobs per queue and state (absent while Redis is unreachable)',
      labelNames: ['queue', 'state'] as const,
      registers,
      async collect() {
        this.reset();
        for (const { queue, counts } of (await read()).queues ?? []) {
          for (const state of QUEUE_STATES) this.set({ queue, state }, counts[state] ?? 0);
        }
      },
    });
    new Gauge({
      name: 'fieldwork_webhook_deliveries_open',
      help: 'Webhook deliveries not finished yet, by state: pending (waiting for their next attempt) or in_flight',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        this.reset();
        for (const [state, n] of Object.entries((await read()).deliveries ?? {})) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'fieldwork_webhook_attempts_last_hour',
      help: 'Webhook HTTP attempts started in the last hour, by outcome (delivered, retry, rescheduled after 429, abandoned, disabled the endpoint)',
      labelNames: ['outcome'] as const,
      registers,
      async collect() {
        this.reset();
        for (const [outcome, n] of Object.entries((await read()).attempts ?? {})) this.set({ outcome }, n);
      },
    });
    new Gauge({
      name: 'fieldwork_webhook_disabled_endpoints',
      help: 'Webhook endpoints (company and event key) disabled',
      registers,
      async collect() {
        clear(this);
        const n = (await read()).disabledEndpoints;
        if (n !== undefined) this.set(n);
      },
    });
    new Gauge({
      name: 'fieldwork_webhook_delivery_latency_seconds',
      help: 'Event written to successful delivery (end of the delivering attempt - created_at), quantiles over deliveries made in the last hour',
      labelNames: ['quantile'] as const,
      registers,
      async collect() {
        this.reset();
        for (const [quantile, s] of Object.entries((await read()).latency ?? {})) this.set({ quantile }, s);
      },
    });
    new Gauge({
      name: 'fieldwork_worker_heartbeat_age_seconds',
      help: 'Seconds since the newest worker heartbeat (absent when no worker ever ran)',
      registers,
      async collect() {
        clear(this);
        const age = (await read()).heartbeatAge;
        if (age !== undefined && age !== null) this.set(age);
      },
    });
  }

  /** The cached shared state, read again once older than the TTL (concurrent scrapes share one read). */
  async state(): Promise<SharedState> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.state;
    this.inflight ??= this.read()
      .then((state) => {
        this.cached = { at: Date.now(), state };
        return state;
      })
      .finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async read(): Promise<SharedState> {
    const [queues, deliveries, attempts, disabledEndpoints, latency, heartbeatAge] = await Promise.all([
      this.guard('redis', 'queue counts', () =>
        Promise.all(
          this.producer
            .all()
            .map(async (q) => ({ queue: q.name, counts: (await q.getJobCounts(...QUEUE_STATES)) as Record<string, number> })),
        ),
      ),
      this.guard('database', 'webhook deliveries', async () =>
        countsBy(
          await this.dataSource.query(
            `SELECT state AS k, count(*)::int AS n FROM webhook_deliveries WHERE state IN ('pending', 'in_flight') GROUP BY state`,
          ),
          OPEN_DELIVERY_STATES,
        ),
      ),
      this.guard('database', 'webhook attempts', async () =>
        countsBy(
          await this.dataSource.query(
            `SELECT outcome AS k, count(*)::int AS n FROM webhook_attempts WHERE started_at >= $1 GROUP BY outcome`,
            [Date.now() - WINDOW_MS],
          ),
          ATTEMPT_OUTCOMES,
        ),
      ),
      this.guard('database', 'disabled endpoints', async () => {
        const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE disabled`);
        return row.n as number;
      }),
      this.guard('database', 'delivery latency', async () => {
        const [row] = await this.dataSource.query(
          `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a.started_at + a.duration_ms - d.created_at)::float8 AS p50,
                  percentile_cont(0.99) WITHIN GROUP (ORDER BY a.started_at + a.duration_ms - d.created_at)::float8 AS p99
             FROM webhook_attempts a JOIN webhook_deliveries d ON d.company_id = a.company_id AND d.id = a.delivery_id
            WHERE a.started_at >= $1 AND a.outcome = 'delivered'`,
          [Date.now() - WINDOW_MS],
        );
        const out: Record<string, number> = {};
        if (row.p50 !== null) out['0.5'] = row.p50 / 1000;
        if (row.p99 !== null) out['0.99'] = row.p99 / 1000;
        return out;
      }),
      this.guard('database', 'worker heartbeat', async () => {
        const [row] = await this.dataSource.query(`SELECT (${SQL_NOW_MS} - max(beat_at))::float8 AS age FROM worker_heartbeats`);
        return row.age === null ? null : Math.max(0, row.age as number) / 1000;
      }),
    ]);
    return { queues, deliveries, attempts, disabledEndpoints, latency, heartbeatAge };
  }

  /** Runs one read under the timeout; a failure is counted and reported as `undefined`. */
  private async guard<T>(source: 'redis' | 'database', what: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await withTimeout(read(), READ_TIMEOUT_MS, what);
    } catch {
      this.collectErrors.inc({ source });
      return undefined;
    }
  }
}
