import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from './metrics.registry';

/** A thread's times in the Linux scheduler, seconds since it started. */
export interface ThreadSchedTimes {
  /** time on a CPU */
  cpuSeconds: number;
  /** time runnable but waiting on a run queue for a CPU */
  runQueueWaitSeconds: number;
}

/**
 * Parses the text of `/proc/<pid>/schedstat`: `<ns on a CPU> <ns waiting on a run queue>
 * <timeslices run>` (the Linux kernel's Documentation/scheduler/sched-stats.rst).
 * @returns the first two fields in seconds, or undefined when the text is not of that shape
 */
export function parseSchedstat(text: string): ThreadSchedTimes | undefined {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 2 || !fields.slice(0, 2).every((f) => /^\d+$/.test(f))) return undefined;
  return { cpuSeconds: Number(fields[0]) / 1e9, runQueueWaitSeconds: Number(fields[1]) / 1e9 };
}

/**
 * The scheduler times of a process's main thread — the one running Node's event loop:
 * `/proc/<pid>/schedstat` holds the thread group leader's own times, not its helper threads'.
 * @param pid a process id, or `self` (this process)
 * @returns undefined off Linux, for a process gone, or on a kernel without schedstat
 */
export function readMainThreadTimes(pid: number | 'self' = 'self'): ThreadSchedTimes | undefined {
  try {
    return parseSchedstat(readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * This api process's event-loop thread in the scheduler, on `GET /metrics`, read when scraped:
 * - `fieldwork_main_thread_cpu_seconds_total`: its time on a CPU;
 * - `fieldwork_main_thread_run_queue_wait_seconds_total`: its time runnable but waiting for a CPU.
 *
 * Every request waits for whatever its api's event loop is not doing for it; on a node whose CPUs
 * are shared or throttled, the wait's rate (seconds per second) is what lengthens the slowest
 * answers, more than GC (`nodejs_gc_duration_seconds`): on a busy 2-core node it was ~27× the GC
 * time (docs/scaling.md, "Mixed load"). Linux only: elsewhere neither series is exported.
 */
@Injectable()
export class SchedulerMetrics {
  constructor(metrics: MetricsRegistry) {
    if (!readMainThreadTimes()) return;
    const registers = [metrics.registry];
    const counter = (name: string, help: string, read: (t: ThreadSchedTimes) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          const times = readMainThreadTimes();
          if (!times) return;
          this.reset();
          this.inc(read(times));
        },
      });
    counter('fieldwork_main_thread_cpu_seconds_total', "Time this process's event-loop thread spent on a CPU", (t) => t.cpuSeconds);
    counter(
      'fieldwork_main_thread_run_queue_wait_seconds_total',
      "Time this process's event-loop thread spent runnable but waiting for a CPU (the Linux run queue)",
      (t) => t.runQueueWaitSeconds,
    );
  }
}
