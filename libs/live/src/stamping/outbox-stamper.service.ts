import { AppConfig, OUTBOX_CHANNEL, OutboxStamping } from '@app/core';
import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { LiveListener } from '../live-listener.service';

/**
 * Drives the stamping of companies after commit (docs/live.md, "Stamping"). Every api process runs
 * one: woken by the outbox's `NOTIFY` (sent at each writing commit, payload the company), and every
 * `STREAM_SAFETY_MS` by a pass over the companies with unstamped events or stamped tables' rows (a
 * lost notification, a process that died between commit and stamping, a write without an event).
 * The stamping itself — once at a time per company in a process, serialised across processes by the
 * company's stamping lock, a wake-up skipping when another process holds it — is core's {@link OutboxStamping}.
 */
@Injectable()
export class OutboxStamper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly stamping: OutboxStamping,
    private readonly listener: LiveListener,
    private readonly config: AppConfig,
  ) {}

  /** stampings that stamped anything, events numbered, stamped tables' rows stamped (metrics, tests) */
  get stats(): OutboxStamping['stats'] {
    return this.stamping.stats;
  }

  onApplicationBootstrap(): void {
    this.listener.subscribe(OUTBOX_CHANNEL, { notified: (company) => company && this.nudge(company), connected: () => void this.sweep() });
    this.timer = setInterval(() => void this.sweep(), this.config.STREAM_SAFETY_MS);
    this.timer.unref();
  }

  /** A commit's wake-up: stamps `companyId`, skipping when another process is stamping it ({@link OutboxStamping.nudge}). */
  nudge(companyId: string): Promise<void> {
    return this.stamping.nudge(companyId);
  }

  /** Stamps every company with anything unstamped (the safety pass). */
  sweep(): Promise<void> {
    return this.stamping.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.stamping.close();
  }
}
