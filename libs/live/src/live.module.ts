import { Module } from '@nestjs/common';
import { LiveListener } from './live-listener.service';
import { PositionsRead } from './positions/locations-positions.read';
import { OutboxStamper } from './stamping/outbox-stamper.service';
import { OutboxStreamRead } from './stream/core-outbox-stream.read';
import { StreamHub } from './stream/stream-hub.service';
import { StreamTokens } from './tokens/stream-tokens.service';

/**
 * Live: the company's event stream (`GET /v1/stream`, docs/live.md) — the stamper that numbers the
 * outbox's events after commit, the hub that streams them with members' positions, and stream
 * tokens. Imported by the api (every instance stamps and streams); needs the global DataSource,
 * AppConfig and core's OutboxRepository.
 */
@Module({
  providers: [LiveListener, OutboxStamper, OutboxStreamRead, PositionsRead, StreamHub, StreamTokens],
  exports: [StreamHub, StreamTokens, OutboxStamper],
})
export class LiveModule {}
