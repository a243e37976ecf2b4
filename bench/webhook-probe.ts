/**
 * The webhook latency probe the worker-isolation figures share (`routewebhooks`, `reports`): a company
 * of its own with a `job_updated` webhook to a loopback receiver and one job; each probe is one
 * `editjobs` call timed until its delivery (carrying the call's marker) reaches the receiver.
 */
import { action, createCompany, TestApi } from '../test/support/api';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { percentile } from './stats';

/** One phase's figures, ms. */
export interface ProbePhase {
  p50: number;
  p99: number;
  max: number;
}

export interface WebhookProbe {
  /** `warmups` untimed probes, then `edits` timed ones, one at a time. */
  phase(edits: number, warmups: number): Promise<ProbePhase>;
}

/** Sets up the probe's company, webhook and job against `receiver`. @throws when a set-up call fails */
export async function webhookProbe(api: TestApi, receiver: WebhookReceiver, companyName: string): Promise<WebhookProbe> {
  const hooked = await createCompany(api, { name: companyName });
  const set = await action(api, 'setwebhooks', { job_updated: { url: `${receiver.url}/updated` } }, { key: hooked.key });
  if (set.body.status !== 0) throw new Error(`setwebhooks: ${JSON.stringify(set.body)}`);
  const created = await action<{ status: number; jobs: Array<{ id: string }> }>(
    api,
    'createjobs',
    { jobs: [{ destinationName: 'Probe job', destinationText: 'Trg republike 1, Ljubljana' }] },
    { key: hooked.key },
  );
  if (created.body.status !== 0) throw new Error(`createjobs: ${JSON.stringify(created.body)}`);
  const jobId = created.body.jobs[0].id;

  let seq = 0;
  /** One edit → its delivery's receipt, ms (sent → received). */
  const probe = async (): Promise<number> => {
    const marker = `probe-${++seq}-${Date.now()}`;
    const before = receiver.received.length;
    const t0 = performance.now();
    const res = await action(api, 'editjobs', { jobs: { [jobId]: { textDispatcher: marker } } }, { key: hooked.key });
    if (res.body.status !== 0) throw new Error(`editjobs: ${JSON.stringify(res.body)}`);
    for (;;) {
      for (let i = before; i < receiver.received.length; i++) if (receiver.received[i].body.includes(marker)) return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Error(`no delivery of ${marker} within 30 s`);
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  return {
    async phase(edits, warmups) {
      for (let i = 0; i < warmups; i++) await probe();
      const ms: number[] = [];
      for (let i = 0; i < edits; i++) ms.push(await probe());
      return { p50: percentile(ms, 50), p99: percentile(ms, 99), max: Math.max(...ms) };
    },
  };
}
