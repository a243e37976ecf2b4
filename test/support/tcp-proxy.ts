import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy a test can cut: `cut()` destroys every open connection and from then on
 * destroys each new one at once (the port stays bound, so clients see resets, not a different
 * server); `restore()` lets connections through again. Used to make PostgreSQL unreachable for one
 * process without touching the shared server.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private isCut = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  /** Listens on a free loopback port; resolves with it. */
  async start(): Promise<number> {
    await new Promise<void>((r, j) => this.server.once('error', j).listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Open client + upstream sockets. */
  get connections(): number {
    return this.sockets.size;
  }

  cut(): void {
    this.isCut = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.isCut = false;
  }

  async close(): Promise<void> {
    this.cut();
    if (!this.server.listening) return;
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private accept(client: Socket): void {
    if (this.isCut) {
      client.on('error', () => undefined);
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  }
}
