import { AppConfig, OUTBOX_CHANNEL, OutboxRepository } from '@app/core';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { LiveListener } from '../live-listener.service';

/**
 * Numbers the outbox's committed events per company after commit (docs/live.md, "Stamping"). Every
 * api process runs one: woken by the outbox's `NOTIFY` (sent at each writing commit, payload the
 * company), and every `STREAM_SAFETY_MS` by a pass over the companies with unstamped events (a lost
 * notification, a process that died between commit and stamping). Within a process, a company is
 * stamped once at a time, a wake-up during a stamping runs one more after it; across processes the
 * company's sequence row serialises them (`OutboxRepository.stamp`).
 */
@Injectable()
export class OutboxStamper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('OutboxStamper');
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** stampings that numbered events, and the events numbered (metrics, tests) */
  readonly stats = { stampings: 0, stamped: 0 };

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly listener: LiveListener,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.listener.subscribe(OUTBOX_CHANNEL, { notified: (company) => company && this.kick(company), connected: () => void this.sweep() });
    this.timer = setInterval(() => void this.sweep(), this.config.STREAM_SAFETY_MS);
    this.timer.unref();
  }

  /**
   * Stamps `companyId` now, or once more after the stamping running. @returns when the company has
   * no events left that were committed before this call (as far as this process's stamping goes).
   */
  kick(companyId: string): Promise<void> {
    const running = this.running.get(companyId);
    if (running) {
      this.again.add(companyId); // the running loop stamps once more before it resolves
      return running;
    }
    const run = this.loop(companyId).finally(() => this.running.delete(companyId));
    this.running.set(companyId, run);
    return run;
  }

  /** Stamps every company with unstamped events (the safety pass). */
  async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      for (const companyId of await this.outbox.unstampedCompanies()) void this.kick(companyId);
    } catch (err) {
      this.logger.warn(`stamping pass failed: ${(err as Error).message}`);
    }
  }

  private async loop(companyId: string): Promise<void> {
    for (;;) {
      this.again.delete(companyId);
      try {
        const r = await this.outbox.stamp(companyId);
        if (r.stamped) {
          this.stats.stampings++;
          this.stats.stamped += r.stamped;
        }
      } catch (err) {
        if (!this.closed) this.logger.warn(`stamping company ${companyId} failed (the safety pass retries): ${(err as Error).message}`);
        return;
      }
      if (!this.again.has(companyId) || this.closed) return;
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }
}
