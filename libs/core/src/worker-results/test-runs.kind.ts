import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { DomainError } from '../errors/domain-error';
import { NotificationsRepository } from '../notifications/notifications.repository';
import { RunKindRegistry } from './run-kind-registry.service';

/**
 * The test-only run kinds (`test.*`), registered when `WORKER_TEST_KINDS=true` (refused in
 * production): they prove the mechanism in `test/platform/worker-results.e2e-spec.ts` and time it in the bench
 * before a real kind exists.
 */
@Injectable()
export class TestRunKinds implements OnModuleInit {
  constructor(
    private readonly registry: RunKindRegistry,
    private readonly config: AppConfig,
    private readonly notifications: NotificationsRepository,
  ) {}

  onModuleInit(): void {
    if (!this.config.WORKER_TEST_KINDS) return;
    registerTestKinds(this.registry, this.notifications);
    new Logger('RunKinds').warn('test run kinds registered (WORKER_TEST_KINDS=true)');
  }
}

/** Registers `test.echo`, `test.sleep`, `test.cpu` and `test.fail` (see {@link RunKinds}). */
export function registerTestKinds(registry: RunKindRegistry, notifications: NotificationsRepository): void {
  registry.register('test.echo', { compute: (params) => Promise.resolve({ value: params.value }) });
  registry.register('test.sleep', {
    compute: async (params) => {
      await sleep(params.ms);
      return params;
    },
    // the marker is the kind's own write: it must exist exactly when the run is done
    write: async (manager, params, ctx) => {
      await notifications.insert(manager, { companyId: ctx.companyId, memberId: null, kind: 'test_marker', jobId: params.marker });
      return { slept: params.ms };
    },
  });
  registry.register('test.cpu', { compute: (params, ctx) => ctx.cpu.run('test.spin', { ms: params.ms }) });
  registry.register('test.fail', {
    compute: (params) =>
      Promise.reject(params.kind ? new DomainError(params.kind, params.message, 'data.test') : new Error(params.message)),
  });
}
