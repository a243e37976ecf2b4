import { AppConfig, TaskProducer } from '@app/core';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from './metrics.registry';
import { SharedStateMetrics } from './shared-state.metrics';

describe('SharedStateMetrics', () => {
  const rowsFor = (sql: string): unknown[] => {
    if (sql.includes('FROM webhook_deliveries WHERE state IN')) return [{ k: 'in_flight', n: 3 }];
    if (sql.includes('FROM webhook_attempts WHERE')) return [{ k: 'retry', n: 2 }];
    if (sql.includes('FROM webhook_endpoints')) return [{ n: 1 }];
    if (sql.includes('percentile_cont')) return [{ p50: 250, p99: 1500 }];
    return [{ age: null }];
  };

  const setup = (getJobCounts: () => Promise<Record<string, number>>) => {
    const metrics = new MetricsRegistry();
    const query = jest.fn(async (sql: string) => rowsFor(sql));
    const producer = { all: () => [{ name: 'dispatch', getJobCounts }] } as unknown as TaskProducer;
    new SharedStateMetrics(metrics, producer, { query } as unknown as DataSource, { METRICS_CACHE_MS: 60_000 } as AppConfig);
    return { metrics, query };
  };

  it('reports the shared state once per cache period; no heartbeat gauge when no worker ever ran', async () => {
    const { metrics, query } = setup(async () => ({ waiting: 4, active: 1, delayed: 0, failed: 2 }));
    const text = await metrics.registry.metrics();
    expect(text).toContain('fieldwork_queue_jobs{queue="dispatch",state="waiting"} 4');
    expect(text).toContain('fieldwork_queue_jobs{queue="dispatch",state="failed"} 2');
    expect(text).toContain('fieldwork_webhook_deliveries_open{state="in_flight"} 3');
    expect(text).toContain('fieldwork_webhook_deliveries_open{state="pending"} 0');
    expect(text).toContain('fieldwork_webhook_attempts_last_hour{outcome="retry"} 2');
    expect(text).toContain('fieldwork_webhook_disabled_endpoints 1');
    expect(text).toContain('fieldwork_webhook_delivery_latency_seconds{quantile="0.99"} 1.5');
    expect(text).not.toMatch(/^fieldwork_worker_heartbeat_age_seconds /m);
    const queries = query.mock.calls.length;
    await metrics.registry.metrics();
    expect(query.mock.calls.length).toBe(queries);
  });

  it('a hung Redis leaves the queue gauges out and counts the error, without hanging the scrape', async () => {
    const { metrics } = setup(() => new Promise(() => undefined));
    const started = Date.now();
    const text = await metrics.registry.metrics();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text).not.toMatch(/^fieldwork_queue_jobs\{/m);
    expect(text).toContain('fieldwork_metrics_collect_errors_total{source="redis"} 1');
    expect(text).toContain('fieldwork_webhook_deliveries_open{state="in_flight"} 3');
    expect(text).toContain('fieldwork_webhook_disabled_endpoints 1');
  });

  it('a failed database read leaves its gauges out', async () => {
    const { metrics, query } = setup(async () => ({ waiting: 0, active: 0, delayed: 0, failed: 0 }));
    query.mockImplementation(async () => {
      throw new Error('connection refused');
    });
    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/^fieldwork_webhook_disabled_endpoints /m);
    expect(text).not.toMatch(/^fieldwork_webhook_deliveries_open\{/m);
    expect(text).toContain('fieldwork_metrics_collect_errors_total{source="database"} 5');
    expect(text).toContain('fieldwork_queue_jobs{queue="dispatch",state="waiting"} 0');
  });
});
