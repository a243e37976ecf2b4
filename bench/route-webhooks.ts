/**
 * Issue #11's last figure (`BENCH_ONLY=routewebhooks`): webhook latency — an `editjobs` call → the
 * `jobupdated` delivery's receipt at a `node:http` receiver on loopback — while `optimizeroute` runs
 * continuously in another company, against the same measurement with the worker idle, in the same run
 * and through the same ONE built worker (its webhook delivery and its dispatch queue/CPU pool share the
 * process). Target: busy p99 ≤ 1.5× idle p99.
 */
import pg from 'pg';
import { TestApi } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { startWorker } from '../test/support/worker';
import { optimizeRouteCall, seedRouteDays } from './optimize-route';
import { fmt, percentile, printPart } from './stats';
import { webhookProbe } from './webhook-probe';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const ROUTE_WEBHOOKS_CONFIG = {
  /** timed edits per phase (idle, busy) */
  edits: envInt('BENCH_ROUTE_WEBHOOK_EDITS', 200),
  warmups: 20,
  /** worker-days the background optimizeroute loop cycles through (10–60 jobs each) */
  routeDays: 12,
  /** concurrent optimizeroute loops (each back to back) */
  routeLoops: envInt('BENCH_ROUTE_WEBHOOK_LOOPS', 1),
  targetRatio: 1.5,
};

export interface RouteWebhookFigures {
  idle: { p50: number; p99: number; max: number };
  busy: { p50: number; p99: number; max: number };
  /** optimizeroute calls completed during the busy phase, and their p50 ms */
  routeCalls: number;
  routeP50: number;
}

const opened: { worker?: Child; receiver?: WebhookReceiver } = {};

/** Stops the worker child and the receiver. Safe to call twice. */
export async function closeRouteWebhooks(): Promise<void> {
  const { worker, receiver } = opened;
  opened.worker = undefined;
  opened.receiver = undefined;
  await worker?.stop('SIGTERM', 10_000).catch(() => undefined);
  await receiver?.close().catch(() => undefined);
}

export async function benchRouteWebhooks(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<RouteWebhookFigures> {
  const { api, pool, log } = opts;
  const cfg = ROUTE_WEBHOOKS_CONFIG;
  opened.worker = await startWorker('bench route-webhooks worker', { NODE_ENV: 'production' }, (sql, params) => pool.query(sql, params));
  const receiver = await new WebhookReceiver().start();
  opened.receiver = receiver;
  const route = await seedRouteDays(api, pool, cfg.routeDays);
  const probe = await webhookProbe(api, receiver, 'Bench route webhooks');
  log(`route-webhooks: ${cfg.routeDays} worker-days seeded`);
  const phase = async (label: string) => {
    const figures = await probe.phase(cfg.edits, cfg.warmups);
    log(`route-webhooks: ${label} phase, ${cfg.edits} edits`);
    return figures;
  };

  const idle = await phase('idle');
  let running = true;
  const routeMs: number[] = [];
  const loops = Array.from({ length: cfg.routeLoops }, async (_, l) => {
    for (let k = l; running; k++) routeMs.push(await optimizeRouteCall(api, route.key, route.days[k % route.days.length]));
  });
  await new Promise((r) => setTimeout(r, 1000)); // the loop under way
  const busy = await phase('busy (optimizeroute running)').finally(() => (running = false));
  await Promise.all(loops);
  await closeRouteWebhooks();
  return { idle, busy, routeCalls: routeMs.length, routeP50: percentile(routeMs, 50) };
}

/** The table rows and notes of the figures. */
export function routeWebhooksReport(f: RouteWebhookFigures): { rows: string[][]; notes: string[]; failed: number } {
  const ratio = f.busy.p99 / f.idle.p99;
  const ok = ratio <= ROUTE_WEBHOOKS_CONFIG.targetRatio;
  return {
    rows: [
      [
        'webhook editjobs → receipt while optimizeroute runs: p99 ms',
        fmt(f.busy.p99),
        fmt(f.idle.p99),
        `${fmt(ratio, 2)}×`,
        `≤ ${ROUTE_WEBHOOKS_CONFIG.targetRatio}×`,
        ok ? 'PASS' : 'FAIL',
      ],
      [
        'webhook editjobs → receipt while optimizeroute runs: p50 ms',
        fmt(f.busy.p50),
        fmt(f.idle.p50),
        `${fmt(f.busy.p50 / f.idle.p50, 2)}×`,
        '—',
        'info',
      ],
    ],
    notes: [
      `route-webhooks: ${ROUTE_WEBHOOKS_CONFIG.edits} timed editjobs calls per phase (after ${ROUTE_WEBHOOKS_CONFIG.warmups} warm-ups), one at a time, each timed from the call to its jobupdated delivery's receipt; ` +
        `baseline = the same with the worker otherwise idle. During the busy phase ${ROUTE_WEBHOOKS_CONFIG.routeLoops} loop(s) called optimizeroute back to back in another company ` +
        `(${f.routeCalls} calls over ${ROUTE_WEBHOOKS_CONFIG.routeDays} worker-days of 10–60 jobs, p50 ${fmt(f.routeP50)} ms), through the same ONE built worker. ` +
        `Max idle ${fmt(f.idle.max)} ms, busy ${fmt(f.busy.max)} ms.`,
    ],
    failed: ok ? 0 : 1,
  };
}

/** `BENCH_ONLY=routewebhooks`: this part alone with the run's header. @returns the exit code */
export async function runRouteWebhooksOnly(opts: PartContext): Promise<number> {
  try {
    return printPart('routewebhooks', routeWebhooksReport(await benchRouteWebhooks(opts)), opts);
  } finally {
    await closeRouteWebhooks();
  }
}
