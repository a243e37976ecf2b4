/**
 * Per-key debounce with a leading and a trailing send, for the api's debounced track builds: the
 * first item of a key is sent at once; items of the same key within `windowMs` after a send are not
 * sent, the newest of them is kept and sent when the window ends (its trailing send opens a new
 * window). So every item is followed, at most `windowMs` later, by a send of its key carrying it or a
 * newer item — nothing is lost, a busy key costs one send per window instead of one per item.
 *
 * Meant for tasks that are themselves deduplicated and delayed downstream (a `tracks` build waits
 * `TRACK_BUILD_DELAY_MS` and rebuilds from the stored fixes): re-sending one per call only repeats a
 * no-op in Redis. `windowMs` ≤ 0 sends every item. A timer (unref'd) runs only while keys are held.
 */
export class TrailingDebounce<T> {
  /** key → when its window began (ms), and the newest item held for the window's end */
  private readonly keys = new Map<string, { sentAt: number; held?: T }>();
  private sweep?: NodeJS.Timeout;

  /**
   * @param windowMs ms a key's sends are at least apart
   * @param send receives each batch of items to send now (never empty)
   * @param now the clock (ms), for tests
   */
  constructor(
    private readonly windowMs: number,
    private readonly send: (items: T[]) => void,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Offers items with their keys: sends at once those whose key has no open window, holds the others. */
  offer(items: ReadonlyArray<{ key: string; item: T }>): void {
    const t = this.now();
    const out: T[] = [];
    for (const { key, item } of items) {
      const entry = this.keys.get(key);
      if (this.windowMs <= 0 || !entry || t - entry.sentAt >= this.windowMs) {
        out.push(item);
        if (this.windowMs > 0) this.keys.set(key, { sentAt: t });
      } else {
        entry.held = item;
      }
    }
    if (out.length) this.send(out);
    if (this.keys.size && !this.sweep) {
      this.sweep = setInterval(() => this.tick(), Math.max(1, Math.ceil(this.windowMs / 4)));
      this.sweep.unref();
    }
  }

  /** Sends every held item now (shutdown). */
  drain(): void {
    const out: T[] = [];
    for (const entry of this.keys.values()) if (entry.held !== undefined) out.push(entry.held);
    this.keys.clear();
    this.stop();
    if (out.length) this.send(out);
  }

  /** Sends the held items whose window ended; forgets the keys whose window ended with nothing held. */
  private tick(): void {
    const t = this.now();
    const out: T[] = [];
    for (const [key, entry] of this.keys) {
      if (t - entry.sentAt < this.windowMs) continue;
      if (entry.held === undefined) {
        this.keys.delete(key);
        continue;
      }
      out.push(entry.held);
      this.keys.set(key, { sentAt: t });
    }
    if (!this.keys.size) this.stop();
    if (out.length) this.send(out);
  }

  private stop(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
  }
}
