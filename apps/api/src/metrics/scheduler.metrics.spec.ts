import { existsSync } from 'node:fs';
import { Registry } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';
import { parseSchedstat, readMainThreadTimes, SchedulerMetrics } from './scheduler.metrics';

const onLinux = existsSync('/proc/self/schedstat');

/** Keeps this thread busy until the process has used `ms` more of CPU (not of wall time: a busy machine may deschedule it). */
function spinCpu(ms: number): void {
  const start = process.cpuUsage();
  const used = () => {
    const { user, system } = process.cpuUsage(start);
    return user + system;
  };
  while (used() < ms * 1000);
}

describe('parseSchedstat', () => {
  it('reads the first two fields, ns, as seconds', () => {
    expect(parseSchedstat('123456789 987654321 42\n')).toEqual({ cpuSeconds: 0.123456789, runQueueWaitSeconds: 0.987654321 });
  });

  it('is undefined for text of another shape', () => {
    for (const text of ['', '\n', '12', 'a b c', '1 -2 3', '1.5 2 3']) expect(parseSchedstat(text)).toBeUndefined();
  });
});

(onLinux ? describe : describe.skip)('on Linux', () => {
  it("reads this process's main thread: its CPU time grows with work done on it", () => {
    const before = readMainThreadTimes();
    spinCpu(50);
    const after = readMainThreadTimes();
    expect(after!.cpuSeconds - before!.cpuSeconds).toBeGreaterThan(0.03);
    expect(after!.runQueueWaitSeconds).toBeGreaterThanOrEqual(before!.runQueueWaitSeconds);
  });

  it('is undefined for a process that does not exist', () => {
    expect(readMainThreadTimes(2 ** 30)).toBeUndefined();
  });

  it('exports both counters with the main thread’s times', async () => {
    // a bare registry: MetricsRegistry's own constructor starts Node's default collectors
    const metrics = { registry: new Registry() } as MetricsRegistry;
    new SchedulerMetrics(metrics);
    const values = async (registry: Registry) =>
      Object.fromEntries((await registry.getMetricsAsJSON()).map((m) => [m.name, (m.values[0]?.value as number) ?? NaN]));
    const first = await values(metrics.registry);
    const cpu = first.fieldwork_main_thread_cpu_seconds_total;
    expect(cpu).toBeGreaterThan(0);
    expect(first.fieldwork_main_thread_run_queue_wait_seconds_total).toBeGreaterThanOrEqual(0);
    spinCpu(30);
    expect((await values(metrics.registry)).fieldwork_main_thread_cpu_seconds_total).toBeGreaterThan(cpu + 0.02);
  });
});
