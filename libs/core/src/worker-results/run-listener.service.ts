import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '../config/env';

/** One run's notifications: `next(ms)` resolves on the next one (or at once if one came since the last call) or after `ms`. */
export interface RunSubscription {
  next(ms: number): Promise<void>;
  /** Stops listening (always call it, in a `finally`). */
  close(): void;
}

/** The NOTIFY channel a worker signals on when it finishes a run (payload: the run id). */
export const RUN_CHANNEL = 'fieldwork_worker_runs';

/**
 * The api's ear for finished runs: ONE dedicated PostgreSQL connection per api instance that
 * `LISTEN`s on {@link RUN_CHANNEL}. Workers `pg_notify` inside their writing transaction, so the
 * notification is sent at commit, to every listening api instance; each wakes only its own waiters.
 * Connected lazily on the first wait (an instance that never waits holds no extra connection) and
 * again after a loss. A notification lost while reconnecting costs at most one re-read interval:
 * waiters re-read the row every `RUN_RECHECK_MS` anyway.
 */
@Injectable()
export class RunListener implements OnModuleDestroy {
  private readonly logger = new Logger('RunListener');
  private readonly waiters = new Map<string, Set<() => void>>();
  private client?: Client;
  private connecting?: Promise<void>;
  private closed = false;

  constructor(private readonly config: AppConfig) {}

  /**
   * Starts listening for run `runId` (connecting first, for at most `connectWithinMs`). Subscribe
   * BEFORE reading the run's row, so a notification between the read and the wait is not missed.
   * Never rejects: a listener that cannot connect leaves the wait to the re-read timer.
   */
  async subscribe(runId: string, connectWithinMs: number): Promise<RunSubscription> {
    await Promise.race([this.ensureConnected(), new Promise<void>((r) => setTimeout(r, Math.max(0, connectWithinMs)).unref())]);
    let notified = false;
    let wake: (() => void) | undefined;
    const onNotify = () => {
      notified = true;
      wake?.();
    };
    const set = this.waiters.get(runId) ?? new Set<() => void>();
    this.waiters.set(runId, set);
    set.add(onNotify);
    return {
      next: (ms: number) =>
        new Promise<void>((resolve) => {
          if (notified || ms <= 0) {
            notified = false;
            return resolve();
          }
          const timer = setTimeout(() => {
            wake = undefined;
            resolve();
          }, ms);
          wake = () => {
            clearTimeout(timer);
            wake = undefined;
            notified = false;
            resolve();
          };
        }),
      close: () => {
        wake?.();
        set.delete(onNotify);
        if (!set.size && this.waiters.get(runId) === set) this.waiters.delete(runId);
      },
    };
  }

  /** Connects (once at a time); failures are logged and retried on the next wait. */
  private ensureConnected(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: 'fieldwork-run-listener',
      connectionTimeoutMillis: 5000,
    });
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (!this.closed) this.logger.warn(`run listener lost (${why}); waits fall back to re-reads until it reconnects`);
      client.end().catch(() => undefined);
    };
    client.on('error', (err: Error) => lost(err.message));
    client.on('end', () => lost('connection ended'));
    client.on('notification', (msg) => {
      if (msg.channel !== RUN_CHANNEL || !msg.payload) return;
      for (const wake of [...(this.waiters.get(msg.payload) ?? [])]) wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${RUN_CHANNEL}`);
      this.client = client;
    } catch (err) {
      this.logger.warn(`run listener could not connect: ${(err as Error).message}`);
      client.end().catch(() => undefined);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    for (const set of this.waiters.values()) for (const wake of [...set]) wake();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
