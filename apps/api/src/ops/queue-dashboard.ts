import { timingSafeEqual } from 'node:crypto';
import { AppConfig, TaskProducer } from '@app/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { INestApplication } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { noteAnsweredError } from './logging';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The queue dashboard for support staff (bull-board) at `/admin/queues`, listing every queue:
 * mounted only when `QUEUE_DASHBOARD_USER` and `QUEUE_DASHBOARD_PASSWORD` are both set (else the
 * path answers 404), always behind HTTP basic auth, read-only unless `QUEUE_DASHBOARD_WRITE=true`.
 */
export function mountQueueDashboard(app: INestApplication): boolean {
  const config = app.get(AppConfig);
  const user = config.QUEUE_DASHBOARD_USER;
  const password = config.QUEUE_DASHBOARD_PASSWORD;
  if (!user || !password) return false;
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: app
      .get(TaskProducer)
      .all()
      .map((q) => new BullMQAdapter(q, { readOnlyMode: !config.QUEUE_DASHBOARD_WRITE })),
    serverAdapter: adapter,
  });
  app.use(QUEUE_DASHBOARD_PATH, (req: Request, res: Response, next: NextFunction) => {
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const [u, ...rest] = Buffer.from(encoded ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (scheme === 'Basic' && same(u, user) && same(rest.join(':'), password)) return next();
    noteAnsweredError(res, 'queue dashboard: credentials required');
    res.setHeader('WWW-Authenticate', 'Basic realm="Fieldwork queues", charset="UTF-8"');
    res.status(401).json({ error: { message: 'queue dashboard: credentials required' } });
  });
  app.use(QUEUE_DASHBOARD_PATH, adapter.getRouter());
  return true;
}
