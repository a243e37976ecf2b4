/**
 * Webhook receivers for the delivery benchmark: one node:http server per company on 127.0.0.1,
 * answering 200 (after `delayMs` when slowed). Every request is recorded once per lane (the first
 * path segment: `ours` for the worker's deliveries, `base` for the baseline's) and webhook-id, with
 * the time its body had arrived (`performance.now()` of this process, so it compares with the
 * bench's own clocks). A repeated webhook-id counts as a duplicate.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface Receipt {
  /** performance.now() when the whole body had arrived */
  at: number;
  lane: string;
  company: number;
  webhookId: string;
  /** form fields `id` (the job id) and `action` */
  formId: string;
  action: string;
  /** raw body and headers: kept for the `ours` lane only (the baseline replays them) */
  body?: string;
  headers?: http.IncomingHttpHeaders;
}

/** Every receipt of the run, shared by all receivers. */
export class ReceiptLog {
  /** lane → webhook-id → first receipt */
  private readonly byId = new Map<string, Map<string, Receipt>>();
  /** `${lane} ${action} ${formId}` → first receipt */
  private readonly byJob = new Map<string, Receipt>();
  duplicates = 0;
  private waiters = new Set<(r: Receipt) => void>();

  add(r: Receipt): void {
    let lane = this.byId.get(r.lane);
    if (!lane) this.byId.set(r.lane, (lane = new Map()));
    if (lane.has(r.webhookId)) {
      this.duplicates += 1;
      return;
    }
    lane.set(r.webhookId, r);
    const k = `${r.lane} ${r.action} ${r.formId}`;
    if (!this.byJob.has(k)) this.byJob.set(k, r);
    for (const w of this.waiters) w(r);
  }

  job(lane: string, action: string, formId: string): Receipt | undefined {
    return this.byJob.get(`${lane} ${action} ${formId}`);
  }

  /** Drops the (lane, action, formId) entry so the next event of that job is told apart from this one. */
  forget(lane: string, action: string, formId: string): void {
    this.byJob.delete(`${lane} ${action} ${formId}`);
  }

  count(lane: string): number {
    return this.byId.get(lane)?.size ?? 0;
  }

  /**
   * Resolves with the receipts of (`action`, each of `formIds`) in `lane` once all have arrived
   * (at once for those already here); rejects after `timeoutMs` naming how many are missing.
   */
  waitForJobs(lane: string, action: string, formIds: string[], timeoutMs: number): Promise<Receipt[]> {
    const missing = new Set(formIds.filter((id) => !this.job(lane, action, id)));
    const collect = () => formIds.map((id) => this.job(lane, action, id)!);
    if (!missing.size) return Promise.resolve(collect());
    return new Promise((resolve, reject) => {
      const waiter = (r: Receipt) => {
        if (r.lane !== lane || r.action !== action || !missing.delete(r.formId) || missing.size) return;
        done();
        resolve(collect());
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${missing.size} of ${formIds.length} ${action} webhooks (${lane}) not received within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
    });
  }
}

/** One company's receiver. */
export class BenchReceiver {
  /** ms before answering (0: at once) */
  delayMs = 0;
  url = '';
  private server?: http.Server;
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Slowed answers not sent yet. */
  get pending(): number {
    return this.timers.size;
  }

  constructor(
    readonly company: number,
    private readonly log: ReceiptLog,
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        const body = Buffer.concat(chunks).toString('utf8');
        const lane = (req.url ?? '/').split('/')[1] ?? '';
        const form = new URLSearchParams(body);
        this.log.add({
          at,
          lane,
          company: this.company,
          webhookId: String(req.headers['webhook-id'] ?? ''),
          formId: form.get('id') ?? '',
          action: form.get('action') ?? '',
          ...(lane === 'ours' ? { body, headers: req.headers } : {}),
        });
        if (!this.delayMs) {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        }
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        }, this.delayMs);
        this.timers.add(timer);
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (!this.server) return;
    const server = this.server;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
