/**
 * The webhook baseline: a plain loop POSTing form-urlencoded bodies through undici, with the headers
 * the worker sends (`webhook-id`, a fresh `webhook-timestamp`, `webhook-signature` made by the app's
 * own `signatureHeader` for every request, content-type and user-agent). Run as a child process
 * (like the worker it is compared with, it does not share the receivers' event loop): receives a
 * {@link BaselineConfig} over IPC and answers a {@link BaselineResult}. {@link sendSigned} is also
 * used in-process by the latency figure.
 */
import { Agent, request } from 'undici';
import { signatureHeader } from '../libs/webhooks/src/signing';

export interface BaselineRequest {
  url: string;
  webhookId: string;
  /** index into {@link BaselineConfig.secrets} */
  secret: number;
  body: string;
}

export interface BaselineConfig {
  requests: BaselineRequest[];
  secrets: string[];
  concurrency: number;
}

export interface BaselineResult {
  requests: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  p50: number;
  p99: number;
  /** s, the loop process's own CPU (user + system) over its requests */
  cpuS: number;
}

/** The same pool settings as the worker's WebhookSender (64 connections per origin). */
export function baselineAgent(): Agent {
  return new Agent({ connections: 64, headersTimeout: 15_000, bodyTimeout: 15_000 });
}

/** One signed POST, as the worker makes it. @returns the HTTP status. */
export async function sendSigned(agent: Agent, url: string, webhookId: string, secret: string, body: string): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([secret], webhookId, timestamp, body),
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'Fieldwork-Webhooks/1.0',
    },
    body,
  });
  await res.body.dump({ limit: 64 * 1024 });
  return res.statusCode;
}

async function runBaseline(cfg: BaselineConfig): Promise<BaselineResult> {
  const agent = baselineAgent();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: cfg.concurrency }, async () => {
      while (next < cfg.requests.length) {
        const r = cfg.requests[next++];
        const s = performance.now();
        try {
          const status = await sendSigned(agent, r.url, r.webhookId, cfg.secrets[r.secret], r.body);
          if (status === 200) latencies.push(performance.now() - s);
          else {
            errors += 1;
            firstError ??= `HTTP ${status}`;
          }
        } catch (err) {
          errors += 1;
          firstError ??= (err as Error).message;
        }
      }
    }),
  );
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await agent.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? NaN;
  return { requests: latencies.length, errors, firstError, elapsedMs, p50: at(50), p99: at(99), cpuS: (cpu.user + cpu.system) / 1e6 };
}

if (require.main === module && process.send) {
  process.once('message', (cfg: BaselineConfig) => {
    runBaseline(cfg).then(
      (result) => process.send!(result, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
    );
  });
}
