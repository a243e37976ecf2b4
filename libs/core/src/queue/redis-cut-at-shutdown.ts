/** ms between two probes of Redis during a shutdown. */
export const CUT_PROBE_EVERY_MS = 500;
/** Failed probes in a row before the connections are cut (with {@link CUT_PROBE_EVERY_MS}: Redis away for about 1 s or more). */
export const CUT_AFTER_FAILED_PROBES = 3;

/**
 * A worker's shutdown with Redis unreachable: cuts this process's queue connections, so that what
 * waits on them fails instead of waiting for ever.
 *
 * A BullMQ worker's connections must wait for Redis (`maxRetriesPerRequest: null`, the offline queue
 * on), and a graceful stop waits for the tasks in hand (`Worker.close`). A task whose completion — or
 * any command of its own, or a start-up pass's — was sent while Redis was away waits as long as Redis
 * does, so the stop did too, until the SIGKILL at the end of the grace period (docs/faults.md, "The
 * whole Redis down at SIGTERM"). From the shutdown's start, `reachable` is asked every
 * {@link CUT_PROBE_EVERY_MS} ms (one probe at a time); after {@link CUT_AFTER_FAILED_PROBES} failures
 * in a row, `cut` runs once and the probing ends. A probe that succeeds resets the count, so a Redis
 * that answers is never cut: the tasks in hand then finish as always. What the cut costs: the
 * completions of the tasks in hand are not recorded, so their locks lapse and BullMQ's stalled check
 * gives them again to a worker once Redis is back (every task is idempotent); with Redis away they
 * could not be recorded anyway.
 */
export class RedisCutAtShutdown {
  private timer?: NodeJS.Timeout;
  private failures = 0;
  private done = false;

  constructor(
    /** whether Redis answers now (resolves false when not; never rejects) */
    private readonly reachable: () => Promise<boolean>,
    /** cuts the connections (called at most once) */
    private readonly cut: () => void | Promise<void>,
    private readonly logger: { warn(message: string): void },
    private readonly everyMs = CUT_PROBE_EVERY_MS,
    private readonly afterFailures = CUT_AFTER_FAILED_PROBES,
  ) {}

  /** Starts probing (idempotent; nothing after {@link stop}). */
  start(): void {
    if (this.done || this.timer) return;
    this.schedule(0);
  }

  /** Stops probing; no cut after it. */
  stop(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.probe(), ms);
    this.timer.unref();
  }

  private async probe(): Promise<void> {
    const ok = await this.reachable().catch(() => false);
    if (this.done) return;
    this.failures = ok ? 0 : this.failures + 1;
    if (this.failures < this.afterFailures) return this.schedule(this.everyMs);
    this.done = true;
    this.logger.warn(
      `shutdown: Redis unreachable (${this.failures} probes in a row); cutting the queue connections so the tasks in hand and what waits on Redis end (their tasks come back as stalled once Redis is back)`,
    );
    try {
      await this.cut();
    } catch (err) {
      this.logger.warn(`shutdown: cutting the queue connections failed: ${(err as Error).message}`);
    }
  }
}
