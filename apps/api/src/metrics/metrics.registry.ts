import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * This app's own prom-client registry (not the global one: several apps booted in one process,
 * as the e2e tests do, must not clash), with the Node process metrics and the request metrics.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'fieldwork_http_requests_total',
    help: 'HTTP requests answered, by surface, action name or route template, and status',
    labelNames: ['surface', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly duration = new Histogram({
    name: 'fieldwork_http_request_duration_seconds',
    help: 'HTTP request duration until the response is sent, by surface and action name or route template',
    labelNames: ['surface', 'route'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
