/**
 * The machine's price of one loopback round trip, measured before a load part so its figures can be
 * read against the machine: a fix costs some 20–30 round trips between the generator, haproxy, the
 * apis, the workers, PostgreSQL and Redis (docs/scaling.md, "What a fix costs"), so a VM whose
 * wake-ups are dear serves fewer fixes with the same code (bench/RESULTS.md "mixed", 2026-11-28).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';

/** An echo server in a child node process: prints its port, then echoes every byte back. */
const ECHO_SERVER = `
  const net = require('node:net');
  net.createServer((s) => s.on('data', (d) => s.write(d))).listen(0, '127.0.0.1', function () {
    process.stdout.write(String(this.address().port) + '\\n');
  });`;

export interface LoopbackFigures {
  roundTrips: number;
  /** wall time per round trip, µs (write → the peer's echo read back) */
  wallUs: number;
  /** this process's CPU (user + system) per round trip, µs: half of the pair's work */
  cpuUs: number;
  /** of which system (kernel) time, µs */
  sysUs: number;
}

/**
 * `roundTrips` one-byte ping-pongs over a loopback TCP connection to a child node process, one at a
 * time (each waits for the echo).
 * @throws Error when the child does not start or the connection fails
 */
export async function loopbackRoundTrip(roundTrips = 20_000): Promise<LoopbackFigures> {
  const child = spawn(process.execPath, ['-e', ECHO_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the echo server exited (${code})`)));
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.setNoDelay(true);
    const t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    await new Promise<void>((resolve, reject) => {
      let n = 0;
      socket.on('error', reject);
      socket.on('data', () => {
        if (++n === roundTrips) resolve();
        else socket.write('x');
      });
      socket.write('x');
    });
    const wallUs = Number(process.hrtime.bigint() - t0) / 1000 / roundTrips;
    const cpu = process.cpuUsage(cpu0);
    socket.destroy();
    return { roundTrips, wallUs, cpuUs: (cpu.user + cpu.system) / roundTrips, sysUs: cpu.system / roundTrips };
  } finally {
    child.kill();
  }
}
