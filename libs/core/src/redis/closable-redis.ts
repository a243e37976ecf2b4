import Redis, { RedisOptions } from 'ioredis';

/** The members of ioredis' Redis (5.x, 6.0) that {@link ClosableRedis} reaches; private in its typings. */
interface RedisInternals {
  manuallyClosing: boolean;
  setStatus(status: string): void;
  flushQueue(error: Error): void;
}

/** The message ioredis fails commands with when their connection closes (`CONNECTION_CLOSED_ERROR_MSG`). */
export const CONNECTION_CLOSED = 'Connection is closed.';

/**
 * An ioredis {@link Redis} (one server) whose `disconnect()` ends it (status `end`, the `end` event,
 * queued commands failed with "Connection is closed.") also while it waits to reconnect.
 *
 * ioredis' own `disconnect()` (5.11, 6.0) cancels the pending reconnection and ends the socket; the
 * socket's `close` is what leads to `end`. A client already `reconnecting` has no socket left, so
 * nothing follows: it stays `reconnecting` for ever (redis/ioredis#1247; the open #2169 would fix
 * it). BullMQ's `Worker.close()` waits for that `end` on its blocking connection, so a worker stopped
 * while Redis was down never finished closing (docs/decisions.md "Redis: a disconnect that ends";
 * `closable-redis.int-spec.ts` shows both). Here, a manual `disconnect()` of a `reconnecting` client
 * ends it as ioredis' close handling would have (`close`, then `end`). `duplicate()` keeps the class.
 */
export class ClosableRedis extends Redis {
  override disconnect(reconnect = false): void {
    const waitingToReconnect = this.status === 'reconnecting';
    super.disconnect(reconnect);
    if (reconnect || !waitingToReconnect) return;
    const internals = this as unknown as RedisInternals;
    internals.manuallyClosing = false;
    internals.setStatus('close');
    internals.setStatus('end');
    internals.flushQueue(new Error(CONNECTION_CLOSED));
  }

  /** Like ioredis' `duplicate` (the same options, `override` laid over them), as a ClosableRedis. */
  override duplicate(override: Partial<RedisOptions> = {}): ClosableRedis {
    return new ClosableRedis({ ...this.options, ...override });
  }
}
