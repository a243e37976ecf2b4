import { createSocket, RemoteInfo, Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * A tiny authoritative DNS server on loopback UDP, for tests that need host names (CONTRACTS.md,
 * "SSRF": "Tests use a loopback DNS server"). Written by hand with `node:dgram` (no package): it
 * parses the question section and answers A and AAAA queries from fixed maps; a name in neither
 * map is NXDOMAIN, a known name without addresses of the asked type gets an empty NOERROR answer
 * (so `resolve6` of an IPv4-only name yields `[]`, as the real DNS does). Every query is recorded.
 */

/** name (case-insensitive, no trailing dot) → IPv4 addresses */
export type ARecords = Record<string, string[]>;
/** name → IPv6 addresses */
export type AaaaRecords = Record<string, string[]>;

export interface DnsQuery {
  name: string;
  /** 'A', 'AAAA' or the numeric type */
  type: string;
  at: number;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;
const CLASS_IN = 1;

export class TestDnsServer {
  readonly queries: DnsQuery[] = [];
  private socket?: Socket;
  port = 0;

  constructor(
    readonly a: ARecords,
    readonly aaaa: AaaaRecords = {},
  ) {
    for (const [name, list] of Object.entries(a))
      for (const addr of list) if (!isIPv4(addr)) throw new Error(`A record of ${name}: ${addr} is not IPv4`);
    for (const [name, list] of Object.entries(aaaa))
      for (const addr of list) if (!isIPv6(addr)) throw new Error(`AAAA record of ${name}: ${addr} is not IPv6`);
  }

  /** `127.0.0.1:<port>`, as `WEBHOOK_DNS_SERVERS` and `Resolver.setServers` take it. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (msg, rinfo) => this.answer(msg, rinfo));
    socket.on('error', () => undefined); // a malformed datagram never stops the server
    await new Promise<void>((ok, fail) => {
      socket.once('error', fail);
      socket.bind(0, '127.0.0.1', () => {
        socket.off('error', fail);
        ok();
      });
    });
    this.port = socket.address().port;
    return this;
  }

  /** Queries for `name` (any type). */
  queriesFor(name: string): DnsQuery[] {
    return this.queries.filter((q) => q.name === name.toLowerCase());
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket) await new Promise<void>((ok) => socket.close(() => ok()));
  }

  private answer(msg: Buffer, rinfo: RemoteInfo): void {
    const reply = this.buildReply(msg);
    if (reply) this.socket?.send(reply, rinfo.port, rinfo.address);
  }

  /** The reply to one query datagram, or null when it is not a query we can read. */
  buildReply(msg: Buffer): Buffer | null {
    if (msg.length < 12) return null;
    const id = msg.readUInt16BE(0);
    const flags = msg.readUInt16BE(2);
    if (flags & 0x8000) return null; // a response, not a query
    if (msg.readUInt16BE(4) !== 1) return null; // exactly one question, as every resolver sends
    // QNAME: length-prefixed labels up to a zero byte (queries never use compression)
    const labels: string[] = [];
    let offset = 12;
    for (;;) {
      if (offset >= msg.length) return null;
      const len = msg[offset];
      if (len === 0) break;
      if (len > 63 || offset + 1 + len > msg.length) return null;
      labels.push(msg.toString('latin1', offset + 1, offset + 1 + len));
      offset += 1 + len;
    }
    offset += 1;
    if (offset + 4 > msg.length) return null;
    const qtype = msg.readUInt16BE(offset);
    const qclass = msg.readUInt16BE(offset + 2);
    const questionEnd = offset + 4;
    const name = labels.join('.').toLowerCase();
    this.queries.push({ name, type: qtype === TYPE_A ? 'A' : qtype === TYPE_AAAA ? 'AAAA' : String(qtype), at: Date.now() });

    const known = name in this.a || name in this.aaaa;
    const addresses =
      qclass !== CLASS_IN ? [] : qtype === TYPE_A ? (this.a[name] ?? []) : qtype === TYPE_AAAA ? (this.aaaa[name] ?? []) : [];
    const answers = addresses.map((address) => {
      const rdata = Buffer.from(ipaddr.parse(address).toByteArray());
      const rr = Buffer.alloc(12 + rdata.length);
      rr.writeUInt16BE(0xc00c, 0); // name: pointer to the question's name
      rr.writeUInt16BE(qtype, 2);
      rr.writeUInt16BE(CLASS_IN, 4);
      rr.writeUInt32BE(1, 6); // TTL 1 s: tests may change nothing, but never cache long
      rr.writeUInt16BE(rdata.length, 10);
      rdata.copy(rr, 12);
      return rr;
    });
    const header = Buffer.alloc(12);
    header.writeUInt16BE(id, 0);
    // QR=1, the query's opcode and RD, AA=1, RA=1, RCODE 0 (NOERROR) or 3 (NXDOMAIN)
    header.writeUInt16BE(0x8000 | (flags & 0x7800) | 0x0400 | (flags & 0x0100) | 0x0080 | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    header.writeUInt16BE(0, 8);
    header.writeUInt16BE(0, 10);
    return Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]);
  }
}

/** Starts a {@link TestDnsServer} on a free loopback UDP port. */
export function startDnsServer(a: ARecords, aaaa: AaaaRecords = {}): Promise<TestDnsServer> {
  return new TestDnsServer(a, aaaa).start();
}
