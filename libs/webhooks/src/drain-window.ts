/**
 * The sliding window both drains run (an endpoint's {@link WebhookDrain}, a company's REST hook
 * subscriptions' {@link WebhookHooksDrain}): claimed deliveries are sent at once; each answer is
 * recorded as soon as no record call is running, with the answers that came in the same turn of the
 * event loop or within `gatherMs` while others are out (those that come in while a call runs go in
 * the next: a group commit), and the same round trip claims work into the slots the recorded answers
 * freed. So a slow answer holds its own slot only, not a whole batch: the others keep flowing. The
 * in-flight cap itself is the database's (the claim counts the target's `in_flight` rows), so it
 * holds across workers whatever this window does. Pure: no Nest, no I/O of its own.
 */

/** What a window is run with (C: a claimed delivery; A: its answer, decided). */
export interface WindowSteps<C, A> {
  /**
   * One round trip: records `answered` (never empty when `claim` is false) and, when `claim`, claims
   * work into the free slots. `late`: the window had returned (straggler wait passed); these answers
   * are recorded after it. @returns the new claims (none when `claim` is false).
   * A failure fails the window (answers still out are not recorded: their claims are released by the
   * reconciler at `locked_until`, or at once when this worker's heartbeat stops).
   */
  step(answered: A[], claim: boolean, late: boolean): Promise<C[]>;
  /** Sends one claim and decides its answer. A rejection fails the window as a failed step does. */
  send(claim: C): Promise<A>;
  /** Whether claiming is over for good (budget spent, process stopping); asked before each step. */
  claimsOver(): boolean;
  /** Whether this answer ends claiming for good (it disables the endpoint); asked before recording it. */
  halts(answer: A): boolean;
}

/** How a window ends. */
export interface WindowOptions {
  /**
   * ms: once no answer has come for this long, the window returns and leaves the answers still out
   * to its `tail` (they hold no task slot). Undefined: it waits for every answer (at most the HTTP
   * timeout).
   */
  stragglerWaitMs?: number;
  /**
   * ms an answer may wait for the answers still out before it is recorded without them (a record
   * call then carries a whole claim's answers when they come close together, as a batch did, and a
   * slow one holds the others back this long at most). 0 (default): only the answers of the same
   * turn of the event loop go together.
   */
  gatherMs?: number;
}

/** What a window did. */
export interface WindowResult {
  /**
   * why claiming ended: `drained` a claim found nothing due and no answer was out (or only
   * stragglers), `spent` {@link WindowSteps.claimsOver}, `halted` {@link WindowSteps.halts}
   */
  end: 'drained' | 'spent' | 'halted';
  /** steps (round trips) made before returning */
  steps: number;
  /** deliveries claimed before returning */
  claimed: number;
  /** answers still out when it returned (stragglers) */
  late: number;
  /** settles once every straggler is recorded (`step(…, false, true)`); rejects as a failed step does */
  tail: Promise<void>;
}

/**
 * Runs a window: the first step claims (unless claiming is already over), then every group of
 * answers is recorded, claiming into the freed slots while claiming lasts, until no answer is out
 * and the last claim found nothing (or claiming ended), or — with `stragglerWaitMs` — no answer came
 * for that long.
 */
export async function runWindow<C, A>(s: WindowSteps<C, A>, options: WindowOptions = {}): Promise<WindowResult> {
  const w = new Window(s, options.gatherMs ?? 0);
  const end = await w.run(options.stragglerWaitMs);
  return { end, steps: w.steps, claimed: w.claimed, late: w.out, tail: w.out ? w.finishLate() : Promise.resolve() };
}

class Window<C, A> {
  steps = 0;
  claimed = 0;
  /** sends not answered yet */
  out = 0;
  private readonly ready: A[] = [];
  private failure: { err: unknown } | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly s: WindowSteps<C, A>,
    private readonly gatherMs: number,
  ) {}

  async run(stragglerWaitMs: number | undefined): Promise<WindowResult['end']> {
    let claiming = true;
    let end: WindowResult['end'] = 'drained';
    let first = true;
    for (;;) {
      this.throwIfFailed();
      if (claiming && this.s.claimsOver()) {
        claiming = false;
        end = 'spent';
      }
      if (first || this.ready.length) {
        await this.gather();
        const answered = this.ready.splice(0);
        if (claiming && answered.some((a) => this.s.halts(a))) {
          claiming = false;
          end = 'halted';
        }
        first = false;
        if (claiming || answered.length) {
          const claims = await this.s.step(answered, claiming, false);
          this.steps += 1;
          this.launch(claims);
        }
        continue;
      }
      if (!this.out) return end;
      if (!(await this.nextAnswer(stragglerWaitMs))) return end;
    }
  }

  /** Records the answers still out as they come (the window has returned). */
  async finishLate(): Promise<void> {
    for (;;) {
      this.throwIfFailed();
      if (this.ready.length) {
        await this.gather();
        await this.s.step(this.ready.splice(0), false, true);
        continue;
      }
      if (!this.out) return;
      await this.nextAnswer(undefined);
    }
  }

  /**
   * Before a record call: lets the answers of the same turn of the event loop (already read from
   * their sockets) join, then waits up to `gatherMs` for the answers still out.
   */
  private async gather(): Promise<void> {
    if (!this.ready.length || !this.out) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    const until = Date.now() + this.gatherMs;
    while (this.out && !this.failure && Date.now() < until) if (!(await this.nextAnswer(until - Date.now()))) return;
  }

  private launch(claims: C[]): void {
    this.claimed += claims.length;
    for (const c of claims) {
      this.out += 1;
      this.s.send(c).then(
        (a) => {
          this.out -= 1;
          this.ready.push(a);
          this.notify();
        },
        (err: unknown) => {
          this.out -= 1;
          this.failure ??= { err };
          this.notify();
        },
      );
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Waits for an answer (or a failure); false when `timeoutMs` passed first. */
  private nextAnswer(timeoutMs: number | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      if (timeoutMs !== undefined)
        timer = setTimeout(() => {
          this.wake = null;
          resolve(false);
        }, timeoutMs);
    });
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.err;
  }
}
