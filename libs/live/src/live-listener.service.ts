import { AppConfig } from '@app/core';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';

/** What a channel's subscriber is told: each notification's payload, and every (re)connection (notifications may have been lost before it). */
export interface ChannelHandler {
  notified(payload: string): void;
  connected(): void;
}

/** ms before reconnecting after the listening connection is lost (doubling to 30 s). */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 30_000;

/**
 * The live stream's ear: ONE dedicated PostgreSQL connection per api process that `LISTEN`s on the
 * channels subscribed (the outbox's commits, the stamper's stampings). PostgreSQL delivers a
 * `pg_notify` at its transaction's commit to every listening connection. Connected on the first
 * subscription and again after a loss (backing off up to 30 s); every (re)connection is told to the
 * handlers, which re-read what they follow, so a notification lost meanwhile costs latency only.
 */
@Injectable()
export class LiveListener implements OnModuleDestroy {
  private readonly logger = new Logger('LiveListener');
  private readonly handlers = new Map<string, ChannelHandler[]>();
  private client?: Client;
  private connecting = false;
  private closed = false;
  private backoff = RECONNECT_MIN_MS;
  private retry?: NodeJS.Timeout;

  constructor(private readonly config: AppConfig) {}

  /** Listens on `channel` (an identifier of ours, never user input) for `handler`. */
  subscribe(channel: string, handler: ChannelHandler): void {
    const list = this.handlers.get(channel);
    if (list) list.push(handler);
    else this.handlers.set(channel, [handler]);
    if (this.client)
      this.client.query(`LISTEN ${channel}`).then(
        () => handler.connected(),
        () => undefined,
      );
    else this.connect();
  }

  /** Whether the listening connection is up. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  private connect(): void {
    if (this.client || this.connecting || this.closed) return;
    this.connecting = true;
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: 'fieldwork-live-listener',
      connectionTimeoutMillis: 5000,
    });
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(`live listener lost (${why}); reconnecting, the safety passes cover the gap`);
      this.later();
    };
    client.on('error', (err: Error) => lost(err.message));
    client.on('end', () => lost('connection ended'));
    client.on('notification', (msg) => {
      for (const h of this.handlers.get(msg.channel) ?? []) h.notified(msg.payload ?? '');
    });
    client
      .connect()
      .then(async () => {
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
        if (this.closed) return void client.end().catch(() => undefined);
        this.client = client;
        this.backoff = RECONNECT_MIN_MS;
        for (const list of this.handlers.values()) for (const h of list) h.connected();
      })
      .catch((err: Error) => {
        client.end().catch(() => undefined);
        if (!this.closed) {
          this.logger.warn(`live listener could not connect: ${err.message}`);
          this.later();
        }
      })
      .finally(() => (this.connecting = false));
  }

  private later(): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), this.backoff);
    this.retry.unref();
    this.backoff = Math.min(this.backoff * 2, RECONNECT_MAX_MS);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
