import { AppConfig } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { CLAIM_MARGIN_MS } from './drain-rules';
import { WebhookSender } from './webhook-sender.client';

/**
 * The worker's webhook HTTP client (one connection pool per process) and the drains' shutdown: the
 * first shutdown hook sets {@link stopping} (no drain claims again; each records its batch in flight
 * and hands its target on); the HTTP agent closes in the last hook, once the work {@link track}ed —
 * drains, and REST hook answers still awaited after their drain ended — has recorded (at most the
 * timeout and the claim margin), whatever order the queue workers close in.
 */
@Injectable()
export class WebhookHttp implements OnModuleDestroy, OnApplicationShutdown {
  private sender?: WebhookSender;
  /** set on shutdown: drains record their batch in flight and hand their target on */
  stopping = false;
  /** work running in this process, and who waits for none to be */
  private active = 0;
  private readonly idle: Array<() => void> = [];

  constructor(private readonly config: AppConfig) {}

  /** The HTTP client, made on first use (the api never sends). */
  get client(): WebhookSender {
    this.sender ??= new WebhookSender({
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
      dnsServers: this.config.WEBHOOK_DNS_SERVERS?.split(',').filter(Boolean),
    });
    return this.sender;
  }

  /** Runs `work` counted as in progress: the agent is not closed under it. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.active += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
      if (!this.active) this.idle.splice(0).forEach((resolve) => resolve());
    }
  }

  /** The first shutdown hook: from now on no drain claims another batch. */
  onModuleDestroy(): void {
    this.stopping = true;
  }

  /** The last shutdown hook: closes the HTTP agent once the tracked work has recorded. */
  async onApplicationShutdown(): Promise<void> {
    if (this.active) {
      // a shutdown that hangs past its grace period leaves a trace of where
      new Logger('WebhookDelivery').log(
        `shutdown: waiting for ${this.active} drain(s) to record their attempts (at most ${this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS} ms)`,
      );
      await Promise.race([
        new Promise<void>((resolve) => this.idle.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS).unref()),
      ]);
    }
    await this.sender?.close();
  }
}
