import { sendInSlots } from './drain-rules';
import { ClaimedDelivery } from './webhook-deliveries.repository';

const claim = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `d${i}` }) as ClaimedDelivery);
const tick = () => new Promise<void>((r) => setTimeout(r, 1));

describe('sendInSlots', () => {
  it('takes the deliveries in order, never more than `slots` at once, and every one', async () => {
    let open = 0;
    let most = 0;
    const started: string[] = [];
    const taken = await sendInSlots(
      claim(10),
      3,
      () => true,
      async (d) => {
        started.push(d.id);
        most = Math.max(most, ++open);
        await tick();
        open -= 1;
      },
    );
    expect(taken).toBe(10);
    expect(started).toEqual(claim(10).map((d) => d.id));
    expect(most).toBe(3);
  });

  it('stops taking once `more` says no: the requests out finish, the rest are left untaken', async () => {
    let stop = false;
    const finished: string[] = [];
    const taken = await sendInSlots(
      claim(10),
      2,
      () => !stop,
      async (d) => {
        await tick();
        finished.push(d.id);
        if (d.id === 'd2') stop = true;
      },
    );
    // d0, d1 out first; d2 and d3 taken as they ended; d2's end stops the takes, d3 still finishes
    expect(taken).toBe(4);
    expect(finished.sort()).toEqual(['d0', 'd1', 'd2', 'd3']);
  });

  it('with fewer deliveries than slots, or none, uses only what there is', async () => {
    expect(
      await sendInSlots(
        claim(2),
        4,
        () => true,
        () => tick(),
      ),
    ).toBe(2);
    expect(
      await sendInSlots(
        [],
        4,
        () => true,
        () => tick(),
      ),
    ).toBe(0);
  });
});
