import { createParser, EventSourceMessage } from 'eventsource-parser';
import { sseEvent } from './sse-frames';
import { StreamViewer } from './stream-audience';
import { SseSink, StoredEvent, StreamClient, StreamEnd } from './stream-client';

/** A socket of `capacity` frames: `write` answers false once it holds that many; `drain()` empties it. */
class FakeSocket implements SseSink {
  readonly frames: string[] = [];
  held = 0;
  ended = false;
  destroyed = false;
  private onDrain: Array<() => void> = [];
  constructor(private readonly capacity = Infinity) {}
  write(chunk: string): boolean {
    this.frames.push(chunk);
    this.held++;
    return this.held < this.capacity;
  }
  once(_event: 'drain', listener: () => void): void {
    this.onDrain.push(listener);
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  drain(): void {
    this.held = 0;
    for (const l of this.onDrain.splice(0)) l();
  }
  /** The events written, as a WHATWG parser reads them. */
  events(): EventSourceMessage[] {
    const out: EventSourceMessage[] = [];
    const p = createParser({ onEvent: (e) => out.push(e) });
    p.feed(this.frames.join(''));
    return out;
  }
}

const viewer: StreamViewer = { companyId: 'C', memberId: 'W1', role: 'worker' };
const staffViewer: StreamViewer = { companyId: 'C', memberId: 'OP', role: 'operator' };
const ev = (seq: number, over: Partial<StoredEvent> = {}): StoredEvent => ({
  id: `msg_${seq}`,
  seq,
  action: 'jobupdated',
  ts: 1000 + seq,
  payload: `[{"n":${seq}}]`,
  audienceStaff: true,
  audienceMembers: [],
  ...over,
});

const pos = (data: string) => sseEvent('position', data);

function client(sock: FakeSocket, v = staffViewer, filter: ReadonlySet<string> | null = null, limits = { maxEvents: 3, maxBytes: 1e6 }) {
  const ends: StreamEnd[] = [];
  const c = new StreamClient(sock, v, filter, limits, 0, (why) => ends.push(why));
  return { c, ends };
}

describe('StreamClient', () => {
  it('live: sends events after lastSeq in order, skipping what it already passed, nothing while replaying', () => {
    const sock = new FakeSocket();
    const { c } = client(sock);
    c.offerLive([ev(1)]);
    expect(sock.frames).toEqual([]); // replay mode
    c.mode = 'live';
    c.lastSeq = 2;
    c.offerLive([ev(1), ev(2), ev(3), ev(4)]);
    c.offerLive([ev(4), ev(5)]);
    expect(sock.events().map((e) => [e.event, e.id])).toEqual([
      ['jobupdated', '3'],
      ['jobupdated', '4'],
      ['jobupdated', '5'],
    ]);
    expect(JSON.parse(sock.events()[0].data)).toEqual({ id: 'msg_3', seq: 3, action: 'jobupdated', ts: 1003, data: [{ n: 3 }] });
    expect(c.lastSeq).toBe(5);
  });

  it('audience and filter: a worker gets only events naming it, but passes the others (lastSeq moves)', () => {
    const sock = new FakeSocket();
    const { c } = client(sock, viewer, new Set(['jobupdated', 'notification']));
    c.mode = 'live';
    c.offerLive([
      ev(1),
      ev(2, { audienceMembers: ['W1'] }),
      ev(3, { audienceStaff: false, audienceMembers: ['W1'], action: 'notification' }),
      ev(4, { audienceMembers: ['W1'], action: 'jobcreated' }),
      ev(5, { audienceStaff: false, audienceMembers: ['W2'], action: 'notification' }),
    ]);
    expect(sock.events().map((e) => e.id)).toEqual(['2', '3']);
    expect(c.lastSeq).toBe(5);
  });

  it('a full socket queues live events; past the limit the client is dropped (destroyed), never before', () => {
    const sock = new FakeSocket(2);
    const { c, ends } = client(sock);
    c.mode = 'live';
    c.offerLive([ev(1), ev(2)]); // the second fills the socket
    c.offerLive([ev(3), ev(4), ev(5)]); // 3 waiting: at the limit, kept
    expect(c.waiting).toBe(3);
    expect(ends).toEqual([]);
    sock.drain(); // two go out, the socket is full again, one waits
    expect(sock.events().map((e) => e.id)).toEqual(['1', '2', '3', '4']);
    expect(c.waiting).toBe(1);
    c.offerLive([ev(6), ev(7), ev(8)]); // 4 waiting: over
    expect(ends).toEqual(['lag']);
    expect(sock.destroyed).toBe(true);
    expect(c.open).toBe(false);
  });

  it('positions never count as backlog: while full, the newest of each member waits and goes out on drain', () => {
    const sock = new FakeSocket(1);
    const { c, ends } = client(sock);
    c.mode = 'live';
    c.position('M1', pos('{"v":1}')); // fills the socket
    for (let i = 2; i <= 50; i++) c.position('M1', pos(`{"v":${i}}`));
    c.position('M2', pos('{"v":"m2"}'));
    expect(ends).toEqual([]);
    sock.drain();
    sock.drain();
    expect(sock.events().map((e) => e.data)).toEqual(['{"v":1}', '{"v":50}', '{"v":"m2"}']);
  });

  it('a worker sees only its own position; ?events= without position sends none', () => {
    const sock = new FakeSocket();
    const { c } = client(sock, viewer);
    c.position('W2', pos('{}'));
    c.position('W1', pos('{"me":1}'));
    const other = new FakeSocket();
    client(other, staffViewer, new Set(['jobcreated'])).c.position('W1', pos('{}'));
    expect(sock.events().map((e) => e.data)).toEqual(['{"me":1}']);
    expect(other.frames).toEqual([]);
  });

  it('replay waits for the socket to drain before it resolves', async () => {
    const sock = new FakeSocket(1);
    const { c } = client(sock);
    let done = false;
    const p = c.replay(ev(1)).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    sock.drain();
    await p;
    expect(done).toBe(true);
    expect(c.lastSeq).toBe(1);
  });

  it('shutdown writes retry: then ends; ending twice reports once', () => {
    const sock = new FakeSocket();
    const { c, ends } = client(sock);
    c.end('shutdown', 1234.4);
    c.end('closed');
    expect(sock.frames).toEqual(['retry: 1234\n\n']);
    expect(sock.ended).toBe(true);
    expect(ends).toEqual(['shutdown']);
  });
});
