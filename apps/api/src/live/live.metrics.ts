import { StreamHub } from '@app/live';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics.registry';

/**
 * This api process's live stream figures on `GET /metrics` (docs/live.md, "Operations"):
 * - `fieldwork_stream_open`: streams open;
 * - `fieldwork_stream_frames_sent_total`: frames written to streams (events, positions, snapshots);
 * - `fieldwork_stream_dropped_total`: clients dropped because their socket did not drain (they resume);
 * - `fieldwork_stream_delay_seconds`: per event, from its creation (database clock, in its writing
 *   transaction) to its hand-over to this process's streams — commit, stamping, NOTIFY and the read.
 */
@Injectable()
export class LiveMetrics {
  constructor(metrics: MetricsRegistry, hub: StreamHub) {
    const registers = [metrics.registry];
    new Gauge({
      name: 'fieldwork_stream_open',
      help: 'Live streams open on this api process',
      registers,
      collect() {
        this.set(hub.openStreams);
      },
    });
    new Counter({
      name: 'fieldwork_stream_frames_sent_total',
      help: 'Frames (events, positions, snapshots) written to live streams by this process',
      registers,
      collect() {
        this.reset();
        this.inc(hub.stats.sent);
      },
    });
    new Counter({
      name: 'fieldwork_stream_dropped_total',
      help: 'Live stream clients dropped by this process because their socket did not drain',
      registers,
      collect() {
        this.reset();
        this.inc(hub.stats.droppedForLag);
      },
    });
    const delay = new Histogram({
      name: 'fieldwork_stream_delay_seconds',
      help: "Events' delay from creation (in the writing transaction) to their hand-over to this process's streams",
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    hub.onDelay = (ms) => delay.observe(Math.max(0, ms) / 1000);
  }
}
