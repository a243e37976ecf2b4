import { SHUTDOWN_TRACE_EVERY_MS } from './shutdown-watch';

/**
 * A trace for one piece of work that outlives what it should take: once `afterMs` ms have passed
 * since it started, warns `<label>: still <phase> after <s> s` on `logger`, then again every
 * `everyMs` ms, until {@link end}. The work names its phase as it goes ({@link enter}), so a task
 * that never finishes says which of its awaits never returned (docs/decisions.md, "Operations",
 * "Phase trace"). Its timer is unref'd: it never keeps the process alive itself.
 */
export class PhaseWatch {
  private phase = 'starting';
  private readonly since = Date.now();
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param label what the work is, e.g. `drain of endpoint <id>`
   * @param afterMs ms from now to the first line (the longest the work can take when all goes well)
   * @param everyMs ms between the following lines
   */
  constructor(
    private readonly logger: { warn(message: string): void },
    private readonly label: string,
    afterMs: number,
    private readonly everyMs = SHUTDOWN_TRACE_EVERY_MS,
  ) {
    this.timer = setTimeout(() => this.reportAndRepeat(), afterMs);
    this.timer.unref();
  }

  /** The work enters `phase` (a few words: `recording and claiming (PostgreSQL)`). */
  enter(phase: string): void {
    this.phase = phase;
  }

  /** The work is over: no more lines. Idempotent. */
  end(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private reportAndRepeat(): void {
    const seconds = Math.round((Date.now() - this.since) / 1000);
    this.logger.warn(`${this.label}: still ${this.phase} after ${seconds} s`);
    this.timer = setTimeout(() => this.reportAndRepeat(), this.everyMs);
    this.timer.unref();
  }
}
