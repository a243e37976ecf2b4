/** How a {@link MicroBatcher} groups: items a pass takes at most, passes running at once. */
export interface MicroBatcherOptions<T = unknown> {
  maxSize: number;
  maxInFlight: number;
  /**
   * Optional: items of one key never share a pass nor run in two passes at once — a later item of a
   * key waits (in submission order) until the pass holding the earlier one has finished. For a pass
   * that may touch a row at most once (PostgreSQL's `INSERT … ON CONFLICT DO UPDATE`), or work that
   * must keep a key's order.
   */
  key?: (item: T) => string;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Gathers the items submitted while its passes are busy into the next pass — the "group commit"
 * idea: work that arrives while a pass runs rides together in the next one, so a pass's fixed cost
 * (a transaction's round trips) is paid once for many items when they arrive faster than passes
 * finish, and an item arriving at an idle batcher starts at once (no timer, no added latency).
 *
 * At most `maxInFlight` passes run at once, each over at most `maxSize` items in submission order.
 * `submit` answers a promise that settles with the item's pass: resolved when the pass resolved.
 * When a pass over several items rejects, each of its items is run again in a pass of its own, so
 * one bad item fails only its own promise (the pass must therefore be safe to repeat — idempotent).
 *
 * With `key`, a pass holds at most one item per key and a key runs in one pass at a time; an item
 * whose key is busy is skipped over (not blocking the items behind it) and taken by a later pass.
 *
 * (DataLoader, the usual library for batching, dispatches what one tick of the event loop gathered;
 * items here arrive one Redis round trip apart, so it would pass them one by one. This one gathers
 * for as long as every slot is busy.)
 */
export class MicroBatcher<T> {
  private waiting: Waiting<T>[] = [];
  private running = 0;
  /** keys of the items in running passes (with `key`) */
  private readonly busy = new Set<string>();

  /**
   * @param pass runs one pass over its items (not empty); rejects to fail them
   * @throws Error when an option is not a positive integer
   */
  constructor(
    private readonly pass: (items: T[]) => Promise<void>,
    private readonly opts: MicroBatcherOptions<T>,
  ) {
    for (const name of ['maxSize', 'maxInFlight'] as const) {
      const v = opts[name];
      if (!Number.isInteger(v) || v < 1) throw new Error(`MicroBatcher ${name} must be a positive integer, got ${v}`);
    }
  }

  /** Runs `item` in the next pass with a free slot. */
  submit(item: T): Promise<void> {
    return this.submitAll([item])[0];
  }

  /**
   * Runs `items` as if submitted one by one, but all queued before any pass starts: they fill passes
   * of up to `maxSize` together, where one by one the first would start a pass alone in each free
   * slot. One promise per item, in order, each as {@link submit}'s.
   */
  submitAll(items: readonly T[]): Promise<void>[] {
    const promises = items.map((item) => new Promise<void>((resolve, reject) => this.waiting.push({ item, resolve, reject })));
    this.pump();
    return promises;
  }

  /** Items waiting for a pass (not counting those running). */
  get pending(): number {
    return this.waiting.length;
  }

  private pump(): void {
    while (this.running < this.opts.maxInFlight && this.waiting.length) {
      const batch = this.take();
      if (!batch.length) return; // every waiting item's key is in a running pass
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        if (this.opts.key) for (const w of batch) this.busy.delete(this.opts.key(w.item));
        this.pump();
      });
    }
  }

  /** The next pass's items: the first `maxSize` waiting, or with `key` the first of each key not busy. */
  private take(): Waiting<T>[] {
    const key = this.opts.key;
    if (!key) return this.waiting.splice(0, this.opts.maxSize);
    const batch: Waiting<T>[] = [];
    const rest: Waiting<T>[] = [];
    for (const w of this.waiting) {
      const k = key(w.item);
      if (batch.length < this.opts.maxSize && !this.busy.has(k)) {
        this.busy.add(k);
        batch.push(w);
      } else rest.push(w);
    }
    this.waiting = rest;
    return batch;
  }

  private async run(batch: Waiting<T>[]): Promise<void> {
    try {
      await this.pass(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
    }
    // the pass over several failed: each alone, so only the bad ones fail
    for (const w of batch) {
      try {
        await this.pass([w.item]);
        w.resolve();
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
