import { Global, Module } from '@nestjs/common';
import { RunKindRegistry } from './run-kinds';
import { RunListener } from './run-listener';
import { TestRunKinds } from './test-kinds';
import { WorkerResultsService } from './worker-results.service';

/**
 * Worker results for both apps: the kind registry (domain modules register their handlers in it), the
 * api's {@link WorkerResultsService} and its listener (which connects only on the first wait). The
 * worker adds {@link RunExecutor} with its CPU pool. Needs the DataSource and `QueueModule.register()`.
 */
@Global()
@Module({
  providers: [RunKindRegistry, TestRunKinds, RunListener, WorkerResultsService],
  exports: [RunKindRegistry, WorkerResultsService],
})
export class WorkerResultsModule {}
