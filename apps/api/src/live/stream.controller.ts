import { AuthContext } from '@app/core';
import { parseEventsFilter, StreamHub } from '@app/live';
import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { Request, Response } from 'express';
import { Caller, ConnectorStream } from '../envelope/decorators';
import { StreamAuthGuard } from './stream-auth.guard';

/** `Last-Event-ID` / `lastEventId`: a seq (decimal digits); anything else can't be resumed from (→ `reset`, then a snapshot). */
function lastEventIdOf(header: unknown, query: unknown): number | undefined {
  const value = typeof header === 'string' && header !== '' ? header : typeof query === 'string' && query !== '' ? query : undefined;
  if (value === undefined) return undefined;
  return /^\d{1,16}$/.test(value) ? Number(value) : -1;
}

/**
 * `GET /v1/stream` (CONTRACTS.md "Wave 3: live stream"; docs/live.md): the caller's company's events
 * as Server-Sent Events. `?events=a,b` filters by action (an unknown name → 400 before the stream
 * starts); `Last-Event-ID` (header, or `?lastEventId=`) resumes. Nothing compresses or buffers it:
 * no compression middleware runs, and `X-Accel-Buffering: no` asks proxies the same.
 */
@Controller('v1')
export class StreamController {
  constructor(private readonly hub: StreamHub) {}

  @Get('stream')
  @UseGuards(StreamAuthGuard)
  @ConnectorStream({
    summary: "GET /v1/stream: the company's events and members' positions as Server-Sent Events",
    produces: {
      type: 'text/event-stream',
      description:
        '`retry:` first; a `snapshot` (fresh) or the events after `Last-Event-ID`, then live: one event per stamped event the caller may see ' +
        '(`event:` its action, `id:` its seq, `data:` `{id, seq, action, ts, data}`), `position` events, a comment line every 15 s. See CONTRACTS.md "Wave 3: live stream" and docs/live.md.',
    },
    query: {
      token: 'a token from `createstreamtoken` (valid 60 s), instead of the `API-Key` header',
      events: 'comma-separated actions to send (e.g. `jobcreated,position`); an unknown name is 400',
      lastEventId: 'resume after this seq (as the `Last-Event-ID` header)',
    },
    headers: {
      'Last-Event-ID':
        'resume after this seq: every event after it, then current positions; unknown or older than 24 h → `reset`, then a snapshot',
    },
  })
  stream(
    @Caller() ctx: AuthContext,
    @Query('events') events: unknown,
    @Query('lastEventId') lastEventId: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): void {
    const filter = parseEventsFilter(events);
    res.status(200);
    res.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    const { client } = this.hub.open({
      viewer: { companyId: ctx.companyId, memberId: ctx.memberId, role: ctx.role },
      filter,
      lastEventId: lastEventIdOf(req.headers['last-event-id'], lastEventId),
      sink: res,
    });
    req.on('close', () => client.end('closed'));
  }
}
