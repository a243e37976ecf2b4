import { DynamicModule, Module, Type } from '@nestjs/common';
import { ReportFilesRepository } from './report-files.repository';
import { ReportKind } from './report.kind';
import { ReportRenderer } from './report-renderer';
import { ReportsService } from './reports.service';

/** The api's side of reports: createreport and getreport (worker results through the global `WorkerResultsModule`). */
@Module({
  providers: [ReportsService, ReportFilesRepository],
  exports: [ReportsService, ReportFilesRepository],
})
export class ReportsModule {}

/** The worker's side: the `report` run kind rendering with the app's {@link ReportRenderer}, and file pruning. */
@Module({})
export class ReportsWorkerModule {
  /** @param renderer the worker's report thread pool */
  static withRenderer(renderer: Type<ReportRenderer>): DynamicModule {
    return {
      module: ReportsWorkerModule,
      providers: [ReportKind, ReportFilesRepository, renderer, { provide: ReportRenderer, useExisting: renderer }],
      exports: [ReportFilesRepository],
    };
  }
}
