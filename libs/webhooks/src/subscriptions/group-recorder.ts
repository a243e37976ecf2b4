/**
 * Records answers as they come in, in groups (a group commit): {@link add} queues one item and
 * resolves once a flush holding it has finished. A round's answers usually arrive within a few ms
 * of each other: a flush waits until all `expected` items are in, or until the oldest waiting one
 * has waited `gatherMs`, whichever comes first — so a round of 50 answers costs one flush, made
 * after the last answer (no database work competing with the requests still out), and a slow
 * answer never holds the others' records back longer than `gatherMs`. Items added while a flush
 * runs go in the next one.
 */
export class GroupRecorder<T> {
  private queued: Array<{ item: T; done: () => void; fail: (err: unknown) => void }> = [];
  private flushing = false;
  private timer?: NodeJS.Timeout;
  /** items added so far (the round's answers) */
  private added = 0;

  /**
   * @param flush records a group (one round trip); a failure fails every `add` of that group
   * @param expected how many items the round will add
   * @param gatherMs ms the oldest waiting item waits for the others
   */
  constructor(
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly expected: number,
    private readonly gatherMs: number,
  ) {}

  /** Queues `item`; resolves when it is recorded. */
  add(item: T): Promise<void> {
    return new Promise((done, fail) => {
      this.queued.push({ item, done, fail });
      this.added += 1;
      if (this.added >= this.expected) this.start();
      else this.timer ??= setTimeout(() => this.start(), this.gatherMs);
    });
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queued.length) {
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
