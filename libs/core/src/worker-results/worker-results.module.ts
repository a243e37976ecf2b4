import { Global, Module } from '@nestjs/common';
import { RunKindRegistry } from './run-kind-registry.service';
import { RunListener } from './run-listener.service';
import { TestRunKinds } from './test-runs.kind';
import { WorkerResultsService } from './worker-results.service';
import { WorkerRunsRepository } from './worker-runs.repository';

/**
 * Worker results for both apps: the kind registry (domain modules register their handlers in it), the
 * api's {@link WorkerResultsService} and its listener (which connects only on the first wait). The
 * worker adds {@link RunExecutor} with its CPU pool (over {@link WorkerRunsRepository}, exported here).
 * Needs the DataSource and `QueueModule.register()`.
 */
@Global()
@Module({
  providers: [RunKindRegistry, TestRunKinds, RunListener, WorkerRunsRepository, WorkerResultsService],
  exports: [RunKindRegistry, WorkerRunsRepository, WorkerResultsService],
})
export class WorkerResultsModule {}
