import { Injectable, Logger } from '@nestjs/common';
import { OutboxRepository } from './outbox.repository';
import { StampParticipants } from './stamp-participants';

/** What a read that needs stamped rows answers besides its rows: whether the company had committed rows still unstamped. */
export interface MaybePending {
  pending: boolean;
}

/**
 * Stamps companies (docs/live.md, "Stamping"; docs/connector.md, "Polling triggers"): numbers the
 * outbox's committed events and stamps the registered {@link StampParticipants}' rows, through
 * {@link OutboxRepository.stamp}. Within a process a company is stamped once at a time; a request
 * during a stamping runs one more after it; across processes the company's stamping lock serialises
 * them. Driven by the live lib's `OutboxStamper` (NOTIFY after each commit, a periodic pass) in every
 * api process, and by polling reads that found rows still unstamped ({@link readFresh}).
 *
 * A wake-up ({@link nudge}: every api process hears every commit's NOTIFY) does not wait for another
 * process's stamping of the company: it skips (docs/live.md, "One stamper at a time"). Nothing is
 * left behind by that: an event E committed before a nudge that found the lock held at time t is
 * numbered by the holder H if H's snapshot came after E's commit; otherwise H's process hears E's
 * NOTIFY too — during H (its loop runs once more) or after H released the lock (its own nudge stamps,
 * or meets a holder that took the lock after H's release, so after E's commit, which sees E). A
 * lost NOTIFY is the periodic pass's, which waits ({@link sweep}), as before.
 */
@Injectable()
export class OutboxStamping {
  private readonly logger = new Logger('OutboxStamper');
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** companies whose next stamping in this process must wait for another process's (a {@link kick} joined a nudge) */
  private readonly mustWait = new Set<string>();
  private closed = false;
  /**
   * stampings that stamped anything, events numbered, participants' rows stamped, nudges skipped
   * because another process was stamping the company (metrics, tests)
   */
  readonly stats = { stampings: 0, stamped: 0, rows: 0, skipped: 0 };

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly participants: StampParticipants,
  ) {}

  /**
   * Stamps `companyId` now, or once more after the stamping running, waiting for another process's
   * stamping of it if one holds the lock. @returns when the company has nothing left unstamped that
   * was committed before this call (as far as this process's stamping goes); never rejects (a failed
   * stamping is logged, the periodic pass retries).
   */
  kick(companyId: string): Promise<void> {
    this.mustWait.add(companyId);
    return this.start(companyId);
  }

  /**
   * A wake-up after a commit of `companyId` (the outbox's NOTIFY): as {@link kick}, but a stamping
   * that finds another process's stamping of the company running skips instead of waiting for it
   * (that one, or one after it, covers this commit: see the class). @returns when done or skipped;
   * never rejects.
   */
  nudge(companyId: string): Promise<void> {
    return this.start(companyId);
  }

  private start(companyId: string): Promise<void> {
    const running = this.running.get(companyId);
    if (running) {
      this.again.add(companyId); // the running loop stamps once more before it resolves
      return running;
    }
    const run = this.loop(companyId).finally(() => this.running.delete(companyId));
    this.running.set(companyId, run);
    return run;
  }

  /** Stamps every company with committed unstamped events or participant rows (the safety pass). */
  async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      const lists = await Promise.all([this.outbox.unstampedCompanies(), ...this.participants.all().map((p) => p.unstampedCompanies())]);
      for (const companyId of new Set(lists.flat())) void this.kick(companyId); // waits: a NOTIFY may have been lost
    } catch (err) {
      this.logger.warn(`stamping pass failed: ${(err as Error).message}`);
    }
  }

  /**
   * Runs `read` (a polling read of stamped rows of `companyId`); when it found committed rows of the
   * company still unstamped, stamps the company and runs it once more. So a poll sees every row
   * committed before it began — read-your-writes, whichever instance wrote — without waiting for
   * the NOTIFY-driven stamper; the second answer is kept even if more rows committed meanwhile.
   */
  async readFresh<T extends MaybePending>(companyId: string, read: () => Promise<T>): Promise<T> {
    const first = await read();
    if (!first.pending) return first;
    await this.kick(companyId);
    return read();
  }

  /** Stops taking new stampings and waits for the running ones. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running.values()]);
  }

  private async loop(companyId: string): Promise<void> {
    for (;;) {
      this.again.delete(companyId);
      const wait = this.mustWait.delete(companyId);
      try {
        const r = await this.outbox.stamp(companyId, this.participants.all(), { wait });
        if (r.busy) this.stats.skipped++;
        else if (r.stamped || r.rows) {
          this.stats.stampings++;
          this.stats.stamped += r.stamped;
          this.stats.rows += r.rows;
        }
      } catch (err) {
        if (!this.closed) this.logger.warn(`stamping company ${companyId} failed (the safety pass retries): ${(err as Error).message}`);
        return;
      }
      if (!this.again.has(companyId) || this.closed) return;
    }
  }
}
