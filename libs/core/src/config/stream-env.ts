import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from './env-transforms';
import { IngestEnv } from './ingest-env';

/** The live stream's environment variables (docs/live.md), validated with the rest of {@link AppConfig}. */
export class StreamEnv extends IngestEnv {
  /** Live stream (docs/live.md): ms between two `position` events of one member (newest kept). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  STREAM_POSITION_MS = 2000;

  /** Live stream: hours back a `Last-Event-ID` may resume from; older → `reset` and a snapshot. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  STREAM_REPLAY_HOURS = 24;

  /** Live stream: ms between comment lines on an idle stream. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(300000)
  STREAM_HEARTBEAT_MS = 15000;

  /** Live stream: ms a `createstreamtoken` token starts streams. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3600000)
  STREAM_TOKEN_TTL_MS = 60000;

  /** Live stream: live events waiting behind a socket that does not drain before its client is dropped. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  STREAM_MAX_BACKLOG_EVENTS = 1000;

  /** Live stream: bytes of those events before the client is dropped. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1073741824)
  STREAM_MAX_BACKLOG_BYTES = 1048576;

  /**
   * Live stream: ms between the safety passes under LISTEN/NOTIFY — each api instance stamps any
   * company's unstamped events and re-reads its streams' companies (a lost notification costs this much latency).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  STREAM_SAFETY_MS = 2000;
}
