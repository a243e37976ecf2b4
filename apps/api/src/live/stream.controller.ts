import { AuthContext } from '@app/core';
import { parseEventsFilter, StreamHub } from '@app/live';
import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { Request, Response } from 'express';
import { Caller } from '../envelope/decorators';
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
