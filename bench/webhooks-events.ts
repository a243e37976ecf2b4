/**
 * Counts what the worker's webhook-delivery tasks did, from BullMQ's event stream (read only): each
 * `drain` task returns its outcome (`drained` with its `batches`, or `idle`: nothing due, or the
 * endpoint's in-flight slots held by another drain), `wake` tasks return `{enqueued}`.
 */
import { QueueEvents } from 'bullmq';

export type TaskTally = Record<string, number>;

export class TaskCounter {
  private readonly events: QueueEvents;
  private tally: TaskTally = {};

  constructor(redisUrl: string, prefix: string) {
    const u = new URL(redisUrl);
    this.events = new QueueEvents('webhook-delivery', {
      prefix,
      connection: {
        host: u.hostname,
        port: Number(u.port || 6379),
        username: u.username || undefined,
        password: u.password ? decodeURIComponent(u.password) : undefined,
        db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
        maxRetriesPerRequest: null,
      },
    });
    this.events.on('error', () => undefined);
    this.events.on('completed', ({ returnvalue }) => {
      let v: unknown = returnvalue;
      if (typeof v === 'string') {
        try {
          v = JSON.parse(v);
        } catch {
          // left as is
        }
      }
      const o = v as { outcome?: string; batches?: number; enqueued?: number; released?: number } | null;
      if (o?.batches) this.tally.batches = (this.tally.batches ?? 0) + o.batches;
      const kind =
        o?.outcome ?? (o && 'released' in o ? 'reconcile' : o && 'enqueued' in o ? 'wake' : o && 'deleted' in o ? 'prune' : 'other');
      this.tally[kind] = (this.tally[kind] ?? 0) + 1;
    });
    this.events.on('failed', () => {
      this.tally.failed = (this.tally.failed ?? 0) + 1;
    });
  }

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  /** The tally since the last call (and starts a new one). */
  take(): TaskTally {
    const t = this.tally;
    this.tally = {};
    return t;
  }

  async close(): Promise<void> {
    await this.events.close().catch(() => undefined);
  }
}
