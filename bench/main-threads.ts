import { readMainThreadTimes } from '../apps/api/src/metrics/scheduler.metrics';
import { MetricSample, parseMetrics, valueOf } from '../test/support/metrics-text';

/**
 * Where the main threads of the mix's processes spent a window: on a CPU, or runnable but waiting
 * for one (the Linux scheduler's run queue), and, for the apis, in garbage collection. A request's
 * latency includes every moment its api's main thread was not running it: a long wait for a CPU
 * on a busy machine looks the same to the caller as a long GC pause, and only these figures tell
 * them apart (bench/RESULTS.md, "mixed": what the slowest 1 % waited on).
 */

/** A main thread's scheduler times since its process started, ms. */
export interface SchedTimes {
  /** time on a CPU */
  runMs: number;
  /** time runnable but waiting on a run queue for a CPU */
  waitMs: number;
}

/**
 * The main thread's times of process `pid` in ms (`readMainThreadTimes`, the api's own reader of
 * `/proc/<pid>/schedstat`: the thread group leader's times, the thread that runs Node's event
 * loop, not its helper threads'). Undefined when the process is gone or the kernel keeps no such file.
 */
export function mainThreadSched(pid: number): SchedTimes | undefined {
  const t = readMainThreadTimes(pid);
  return t && { runMs: t.cpuSeconds * 1000, waitMs: t.runQueueWaitSeconds * 1000 };
}

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

/** A window's figures for a group of processes: sums over them, but `loopDelayMaxMs` (the largest). */
export interface ThreadFigures extends SchedTimes {
  gcMs?: number;
  gcOver10ms?: number;
  loopDelayMaxMs?: number;
}

const minus = (a: SchedTimes, b: SchedTimes): SchedTimes => ({ runMs: a.runMs - b.runMs, waitMs: a.waitMs - b.waitMs });

/**
 * Measures a window: {@link MainThreadMeter.start} reads every process once (and scrapes the
 * apis, which resets their event-loop delay maximum), `end` reads them again and returns the
 * differences per group. A process gone meanwhile is left out of its group.
 */
export class MainThreadMeter {
  private sched0 = new Map<number, SchedTimes>();
  private pauses0 = new Map<string, PauseFigures>();

  constructor(
    private readonly apis: () => Array<{ pid: number; url: string }>,
    private readonly workers: () => number[],
  ) {}

  async start(): Promise<void> {
    this.sched0 = new Map();
    for (const pid of [...this.apis().map((a) => a.pid), ...this.workers()]) {
      const t = mainThreadSched(pid);
      if (t) this.sched0.set(pid, t);
    }
    const pauses = await Promise.all(this.apis().map(async (a) => [a.url, await apiPauses(a.url)] as const));
    this.pauses0 = new Map(pauses.filter((p): p is [string, PauseFigures] => p[1] !== undefined));
  }

  async end(): Promise<{ api: ThreadFigures; worker: ThreadFigures }> {
    const sched = (pids: number[]): SchedTimes =>
      pids.reduce(
        (sum, pid) => {
          const now = mainThreadSched(pid);
          const then = this.sched0.get(pid);
          if (!now || !then) return sum;
          const d = minus(now, then);
          return { runMs: sum.runMs + d.runMs, waitMs: sum.waitMs + d.waitMs };
        },
        { runMs: 0, waitMs: 0 },
      );
    let gcMs = 0;
    let gcOver10ms = 0;
    let loopDelayMaxMs = 0;
    for (const a of this.apis()) {
      const now = await apiPauses(a.url);
      const then = this.pauses0.get(a.url);
      if (!now || !then) continue;
      gcMs += now.gcMs - then.gcMs;
      gcOver10ms += now.gcOver10ms - then.gcOver10ms;
      loopDelayMaxMs = Math.max(loopDelayMaxMs, now.loopDelayMaxMs);
    }
    const api: ThreadFigures = { ...sched(this.apis().map((a) => a.pid)), gcMs, gcOver10ms, loopDelayMaxMs };
    return { api, worker: sched(this.workers()) };
  }
}
