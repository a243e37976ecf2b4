import os from 'node:os';
import http from 'node:http';

/** Nearest-rank percentile (p in 0..100) of the values. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (values: number[]) => percentile(values, 50);
export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** ms elapsed running `fn` (awaited). */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** A markdown table, columns padded for reading in a terminal. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/**
 * POST over node:http (keep-alive) to 127.0.0.1. `body` as text, or as its UTF-8 bytes: a caller
 * timing a large request encodes it once beforehand, since Node writes a long string to a socket
 * far slower than the same bytes (apps/api/src/envelope/json-answer.ts, `ENCODE_FIRST_CHARS`).
 * @returns the status and the whole body as text.
 */
export function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** GET over node:http (keep-alive) to 127.0.0.1. @returns the status and the whole body as text. */
export function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function closeAgent(): void {
  agent.destroy();
}

/** What a bench part reports: table rows (benchmark, ours, baseline, ratio, target, pass/fail), notes, missed targets. */
export interface PartReport {
  rows: string[][];
  notes: string[];
  failed: number;
}

/**
 * Prints one part's table with the run's header (`BENCH_ONLY=<part>`) to stdout.
 * @returns the process exit code: 1 only with `BENCH_STRICT=1` and a missed target
 */
export function printPart(part: string, r: PartReport, run: { serverVersion: string; loadAtStart: string }): number {
  const header =
    `Fieldwork bench (${part}) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${run.serverVersion}, ` +
    `${os.cpus().length} CPUs, load average ${run.loadAtStart} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)`;
  process.stdout.write(
    `\n${header}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], r.rows)}\n\n${r.notes.join('\n')}\n`,
  );
  return r.failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
}
