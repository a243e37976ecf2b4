/**
 * Records answers as they come in, in groups (a group commit): {@link add} queues one item and
 * resolves once a flush holding it has finished. A flush takes every item queued by then (after
 * one turn of the event loop, so answers that arrived together go together); items added while it
 * runs wait for the next. So 50 subscribers answering at once cost one or two flushes, and a slow
 * one is recorded on its own later, never holding the others' records back.
 */
export class GroupRecorder<T> {
  private queued: Array<{ item: T; done: () => void; fail: (err: unknown) => void }> = [];
  private flushing = false;

  /** @param flush records a group (one round trip); a failure fails every `add` of that group */
  constructor(private readonly flush: (items: T[]) => Promise<void>) {}

  /** Queues `item`; resolves when it is recorded. */
  add(item: T): Promise<void> {
    return new Promise((done, fail) => {
      this.queued.push({ item, done, fail });
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queued.length) {
        await new Promise((resolve) => setImmediate(resolve));
        const group = this.queued.splice(0);
        try {
          await this.flush(group.map((g) => g.item));
          for (const g of group) g.done();
        } catch (err) {
          for (const g of group) g.fail(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
