import { runWindow, WindowSteps } from './drain-window';

/** A fake target: `due` deliveries (numbers), a cap, and answers released by the test. */
class FakeTarget implements WindowSteps<number, number> {
  readonly calls: Array<{ answered: number[]; claim: boolean; late: boolean; claimed: number[] }> = [];
  inFlight = 0;
  maxInFlight = 0;
  over = false;
  private readonly answers = new Map<number, () => void>();

  constructor(
    private readonly due: number[],
    private readonly cap: number,
    /** ms each delivery takes; undefined: answered only when the test calls `answer` */
    private readonly ms: (d: number) => number | undefined = () => 0,
  ) {}

  async step(answered: number[], claim: boolean, late: boolean): Promise<number[]> {
    await new Promise((r) => setTimeout(r, 1)); // a round trip
    this.inFlight -= answered.length;
    const claimed = claim ? this.due.splice(0, this.cap - this.inFlight) : [];
    this.inFlight += claimed.length;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.calls.push({ answered, claim, late, claimed });
    return claimed;
  }

  send(d: number): Promise<number> {
    const ms = this.ms(d);
    return new Promise((resolve) => {
      if (ms === undefined) this.answers.set(d, () => resolve(d));
      else setTimeout(() => resolve(d), ms);
    });
  }

  answer(d: number): void {
    this.answers.get(d)!();
  }

  claimsOver(): boolean {
    return this.over;
  }

  halts(a: number): boolean {
    return a < 0;
  }

  recorded(): number[] {
    return this.calls.flatMap((c) => c.answered);
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('runWindow', () => {
  it('delivers everything due, never above the cap, recording each answer once', async () => {
    const t = new FakeTarget(range(50), 4, (d) => d % 7);
    const r = await runWindow(t);
    expect(r.end).toBe('drained');
    expect(r.claimed).toBe(50);
    expect(r.late).toBe(0);
    expect(t.recorded().sort((a, b) => a - b)).toEqual(range(50));
    expect(t.maxInFlight).toBe(4);
    expect(t.inFlight).toBe(0);
  });

  it('a slow answer holds its own slot only: the others keep being claimed and sent while it is out', async () => {
    // delivery 1 answers only when told; 2..20 at once
    const t = new FakeTarget(range(20), 4, (d) => (d === 1 ? undefined : 0));
    const run = runWindow(t);
    const until = Date.now() + 2_000;
    while (t.recorded().length < 19 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    // lockstep (claim 4, wait for all 4) would have recorded nothing yet
    expect(t.recorded().sort((a, b) => a - b)).toEqual(range(20).slice(1));
    t.answer(1);
    const r = await run;
    expect(r.end).toBe('drained');
    expect(t.recorded()).toHaveLength(20);
    expect(t.calls.at(-1)).toMatchObject({ answered: [1], claim: true, claimed: [] });
  });

  it('answers that come during a record call go together in the next one (a group commit)', async () => {
    const t = new FakeTarget(range(8), 8, () => 0);
    await runWindow(t);
    // first call claims 8; the 8 answers come in one turn of the event loop, so the next call records all of them
    expect(t.calls.map((c) => c.answered.length)).toEqual([0, 8]);
  });

  it('gatherMs: answers of a claim coming within it go in one call; a slow one waits no longer than it', async () => {
    // 1..4 claimed together: 2, 3, 4 answer within a few ms of each other, 1 only when told
    const t = new FakeTarget([1, 2, 3, 4], 4, (d) => (d === 1 ? undefined : d));
    const run = runWindow(t, { gatherMs: 30 });
    const until = Date.now() + 1_000;
    while (t.recorded().length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(t.calls.map((c) => c.answered.sort())).toEqual([[], [2, 3, 4]]);
    t.answer(1);
    await run;
    expect(t.calls.map((c) => c.answered)).toEqual([[], [2, 3, 4], [1]]);
  });

  it('claimsOver: stops claiming, records the answers out, and says spent', async () => {
    const t = new FakeTarget(range(30), 3, () => 2);
    let steps = 0;
    const real = t.step.bind(t);
    t.step = (a, c, l) => {
      if (++steps === 3) t.over = true;
      return real(a, c, l);
    };
    const r = await runWindow(t);
    expect(r.end).toBe('spent');
    expect(t.inFlight).toBe(0);
    expect(t.calls.at(-1)!.claim).toBe(false);
    expect(t.recorded()).toHaveLength(r.claimed);
    expect(r.claimed).toBeLessThan(30);
  });

  it('claimsOver before the first step: no step at all', async () => {
    const t = new FakeTarget(range(5), 3);
    t.over = true;
    const r = await runWindow(t);
    expect(r).toMatchObject({ end: 'spent', steps: 0, claimed: 0 });
    expect(t.calls).toEqual([]);
  });

  it('a halting answer: the call recording it claims nothing, the others out are still recorded', async () => {
    const t = new FakeTarget([-1, 2, 3, 4, 5, 6], 3, (d) => (d === -1 ? 0 : 5));
    const r = await runWindow(t);
    expect(r.end).toBe('halted');
    const halting = t.calls.find((c) => c.answered.includes(-1))!;
    expect(halting.claim).toBe(false);
    expect(t.recorded().sort((a, b) => a - b)).toEqual([-1, 2, 3]);
    expect(t.calls.filter((c) => c.claim).flatMap((c) => c.claimed)).toEqual([-1, 2, 3]);
  });

  it('stragglerWaitMs: returns once no answer came for that long; the tail records the stragglers late', async () => {
    const t = new FakeTarget(range(6), 3, (d) => (d === 2 ? undefined : 0));
    const r = await runWindow(t, { stragglerWaitMs: 30 });
    expect(r.end).toBe('drained');
    expect(r.late).toBe(1);
    expect(t.recorded().sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6]);
    t.answer(2);
    await r.tail;
    expect(t.calls.at(-1)).toMatchObject({ answered: [2], claim: false, late: true });
  });

  it('a failed step fails the window', async () => {
    const t = new FakeTarget(range(6), 3);
    let n = 0;
    const real = t.step.bind(t);
    t.step = (a, c, l) => (++n === 2 ? Promise.reject(new Error('db down')) : real(a, c, l));
    await expect(runWindow(t)).rejects.toThrow('db down');
  });

  it('a failed send fails the window', async () => {
    const t = new FakeTarget(range(3), 3);
    t.send = (d) => (d === 2 ? Promise.reject(new Error('sign failed')) : Promise.resolve(d));
    await expect(runWindow(t)).rejects.toThrow('sign failed');
  });
});
