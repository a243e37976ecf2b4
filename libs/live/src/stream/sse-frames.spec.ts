import { createParser, EventSourceMessage } from 'eventsource-parser';
import { eventData, sseComment, sseEvent, sseRetry } from './sse-frames';

/** What a WHATWG parser makes of the frames. */
function parse(text: string): { events: EventSourceMessage[]; retries: number[]; comments: string[] } {
  const out = { events: [] as EventSourceMessage[], retries: [] as number[], comments: [] as string[] };
  const parser = createParser({
    onEvent: (e) => out.events.push(e),
    onRetry: (ms) => out.retries.push(ms),
    onComment: (c) => out.comments.push(c),
  });
  parser.feed(text);
  return out;
}

describe('SSE frames', () => {
  it('an event with an id, read back by a standard parser', () => {
    const data = eventData({ id: 'msg_01', seq: 42, action: 'jobcreated', ts: 1700000000000, payload: '[{"id":"J1","name":"a\\nb"}]' });
    const { events } = parse(sseEvent('jobcreated', data, 42));
    expect(events).toEqual([{ event: 'jobcreated', id: '42', data }]);
    expect(JSON.parse(events[0].data)).toEqual({
      id: 'msg_01',
      seq: 42,
      action: 'jobcreated',
      ts: 1700000000000,
      data: [{ id: 'J1', name: 'a\nb' }],
    });
  });

  it('an event without an id leaves the last id alone (position events)', () => {
    const { events } = parse(sseEvent('position', '{"lat":1}'));
    expect(events).toEqual([{ event: 'position', id: undefined, data: '{"lat":1}' }]);
  });

  it('retry and comments', () => {
    const { retries, comments, events } = parse(sseRetry(3000) + sseComment() + sseComment('hb') + sseRetry(1234.6));
    expect(retries).toEqual([3000, 1235]);
    expect(comments.map((c) => c.trim())).toEqual(['', 'hb']);
    expect(events).toEqual([]);
  });
});
