import { readMainThreadTimes, ThreadSchedTimes } from '../apps/api/src/metrics/scheduler.metrics';
import { MetricSample, parseMetrics, valueOf } from '../test/support/metrics-text';

/**
 * Where the main threads of the mix's processes spent a window: on a CPU, or runnable but waiting
 * for one (the Linux scheduler's run queue), and, for the apis, in garbage collection. A request's
 * latency includes every moment its api's main thread was not running it: a long wait for a CPU
 * on a busy machine looks the same to the caller as a long GC pause, and only these figures tell
 * them apart (bench/RESULTS.md, "mixed": what the slowest 1 % waited on).
 */

/** What an api's `GET /metrics` says of its pauses (prom-client's Node metrics). */
export interface PauseFigures {
  /** time in garbage collection since start, ms (`nodejs_gc_duration_seconds_sum`, every kind) */
  gcMs: number;
  /** collections of more than 10 ms since start (`_count` less the `le="0.01"` bucket, every kind) */
  gcOver10ms: number;
  /** the longest event-loop delay since the last scrape, ms (`nodejs_eventloop_lag_max_seconds`: prom-client resets its delay histogram at each scrape) */
  loopDelayMaxMs: number;
}

/** {@link PauseFigures} read from metrics text. */
export function pausesOf(samples: MetricSample[]): PauseFigures {
  const count = valueOf(samples, 'nodejs_gc_duration_seconds_count') ?? 0;
  const under10ms = valueOf(samples, 'nodejs_gc_duration_seconds_bucket', { le: '0.01' }) ?? 0;
  return {
    gcMs: (valueOf(samples, 'nodejs_gc_duration_seconds_sum') ?? 0) * 1000,
    gcOver10ms: count - under10ms,
    loopDelayMaxMs: (valueOf(samples, 'nodejs_eventloop_lag_max_seconds') ?? 0) * 1000,
  };
}

/** Scrapes `${url}/metrics` (no `METRICS_TOKEN` in the bench); undefined when the api does not answer within 5 s. */
export async function apiPauses(url: string): Promise<PauseFigures | undefined> {
  try {
    const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? pausesOf(parseMetrics(await res.text())) : undefined;
  } catch {
    return undefined;
  }
}

/** The difference of two readings of a main thread, seconds. */
const since = (now: ThreadSchedTimes, then: ThreadSchedTimes): ThreadSchedTimes => ({
  cpuSeconds: now.cpuSeconds - then.cpuSeconds,
  runQueueWaitSeconds: now.runQueueWaitSeconds - then.runQueueWaitSeconds,
});

/** A window's figures for the apis: their main threads' times summed, their GC summed, the longest event-loop delay of any. */
export type ApiThreadFigures = ThreadSchedTimes & PauseFigures;

/**
 * Measures a window: {@link MainThreadMeter.start} reads every process's main thread once (and
 * scrapes the apis, which resets their event-loop delay maximum), `end` reads them again and
 * returns the differences summed per group. A process gone meanwhile is left out of its group.
 */
export class MainThreadMeter {
  private sched0 = new Map<number, ThreadSchedTimes>();
  private pauses0 = new Map<string, PauseFigures>();

  constructor(
    private readonly apis: () => Array<{ pid: number; url: string }>,
    private readonly workers: () => number[],
  ) {}

  async start(): Promise<void> {
    this.sched0 = new Map();
    for (const pid of [...this.apis().map((a) => a.pid), ...this.workers()]) {
      const t = readMainThreadTimes(pid);
      if (t) this.sched0.set(pid, t);
    }
    this.pauses0 = await this.scrapeApis();
  }

  /** Every api's pauses now, by url, scraped at once; an api that does not answer is left out. */
  private async scrapeApis(): Promise<Map<string, PauseFigures>> {
    const pauses = await Promise.all(this.apis().map(async (a) => [a.url, await apiPauses(a.url)] as const));
    return new Map(pauses.filter((p): p is [string, PauseFigures] => p[1] !== undefined));
  }

  async end(): Promise<{ api: ApiThreadFigures; worker: ThreadSchedTimes }> {
    const sched = (pids: number[]): ThreadSchedTimes => {
      const sum = { cpuSeconds: 0, runQueueWaitSeconds: 0 };
      for (const pid of pids) {
        const now = readMainThreadTimes(pid);
        const then = this.sched0.get(pid);
        if (!now || !then) continue;
        const d = since(now, then);
        sum.cpuSeconds += d.cpuSeconds;
        sum.runQueueWaitSeconds += d.runQueueWaitSeconds;
      }
      return sum;
    };
    const pauses = { gcMs: 0, gcOver10ms: 0, loopDelayMaxMs: 0 };
    for (const [url, now] of await this.scrapeApis()) {
      const then = this.pauses0.get(url);
      if (!then) continue;
      pauses.gcMs += now.gcMs - then.gcMs;
      pauses.gcOver10ms += now.gcOver10ms - then.gcOver10ms;
      pauses.loopDelayMaxMs = Math.max(pauses.loopDelayMaxMs, now.loopDelayMaxMs);
    }
    return { api: { ...sched(this.apis().map((a) => a.pid)), ...pauses }, worker: sched(this.workers()) };
  }
}
