/** How a {@link MicroBatcher} groups: items a pass takes at most, passes running at once. */
export interface MicroBatcherOptions {
  maxSize: number;
  maxInFlight: number;
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
 * (DataLoader, the usual library for batching, dispatches what one tick of the event loop gathered;
 * items here arrive one Redis round trip apart, so it would pass them one by one. This one gathers
 * for as long as every slot is busy.)
 */
export class MicroBatcher<T> {
  private readonly waiting: Waiting<T>[] = [];
  private running = 0;

  /**
   * @param pass runs one pass over its items (not empty); rejects to fail them
   * @throws Error when an option is not a positive integer
   */
  constructor(
    private readonly pass: (items: T[]) => Promise<void>,
    private readonly opts: MicroBatcherOptions,
  ) {
    for (const [name, v] of Object.entries(opts)) {
      if (!Number.isInteger(v) || v < 1) throw new Error(`MicroBatcher ${name} must be a positive integer, got ${v}`);
    }
  }

  /** Runs `item` in the next pass with a free slot. */
  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** Items waiting for a pass (not counting those running). */
  get pending(): number {
    return this.waiting.length;
  }

  private pump(): void {
    while (this.running < this.opts.maxInFlight && this.waiting.length) {
      const batch = this.waiting.splice(0, this.opts.maxSize);
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
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
