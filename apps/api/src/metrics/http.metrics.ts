import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import { Request } from 'express';
import { surfaceOf } from '../envelope/exception.filter';
import { ACTION_NAME } from '../envelope/request-context';
import { MetricsRegistry } from './metrics.registry';

/** Label for requests no handler claims (and the unknown-action fallback). */
export const UNKNOWN_ROUTE = 'unknown';

/**
 * Request count and latency for every response the HTTP server sends, recorded when the response
 * finishes: after guards, the exception filter and the body parser's error handler, so 4xx and 5xx
 * are counted with the status the client got. Labelled by action name on `/api` (from the handlers'
 * ACTION_NAME metadata; the unknown-action fallback and unmatched paths → `unknown`) and by the
 * Express route template elsewhere (`/v1/jobs/:id`), never by the raw path.
 */
@Injectable()
export class HttpMetrics implements OnModuleInit, OnApplicationShutdown {
  private readonly actions = new Set<string>();
  private server?: Server;

  private readonly onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const { surface, route } = this.labelsOf(req as Request);
      this.metrics.requests.inc({ surface, route, status: String(res.statusCode) });
      this.metrics.duration.observe({ surface, route }, seconds);
    });
  };

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getControllers()) {
      const proto = wrapper.metatype?.prototype as Record<string, unknown> | undefined;
      if (!proto) continue;
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const name = this.reflector.get<string | undefined>(ACTION_NAME, proto[method] as () => unknown);
        if (name) this.actions.add(name);
      }
    }
    // the server exists once the app is created (before init), so this sees every request
    this.server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    this.server?.prependListener('request', this.onRequest);
  }

  onApplicationShutdown(): void {
    this.server?.off('request', this.onRequest);
  }

  /** Surface and route label of a finished request (Express has set `req.route` if a route matched). */
  labelsOf(req: Request): { surface: string; route: string } {
    const path = (req.originalUrl ?? req.url ?? '/').split('?')[0];
    const surface = surfaceOf(path);
    // Nest answers unmatched paths through a catch-all wildcard route (`/{*path}`): not a template of ours
    const routePath: unknown = req.route?.path;
    const template = typeof routePath === 'string' && !routePath.includes('*') ? routePath : undefined;
    if (surface === 'action') {
      const name = template?.startsWith('/api/') ? template.slice(5) : undefined;
      return { surface, route: name && this.actions.has(name) ? name : UNKNOWN_ROUTE };
    }
    return { surface, route: template ?? UNKNOWN_ROUTE };
  }
}
