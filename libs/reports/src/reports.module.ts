import { DynamicModule, Module, Type } from '@nestjs/common';
import { ReportRequestRead } from './reads/members-report-request.read';
import { ReportFilesRepository } from './report-files.repository';
import { ReportKind } from './report.kind';
import { ReportRenderer } from './report-renderer';
import { ReportRetentionService } from './report-retention.service';
import { ReportsService } from './reports.service';

/** The api's side of reports: createreport and getreport (worker results through the global `WorkerResultsModule`). */
@Module({
  providers: [ReportsService, ReportRequestRead, ReportFilesRepository],
  exports: [ReportsService],
})
export class ReportsModule {}

/** The worker's side: the `report` run kind rendering with the app's {@link ReportRenderer}, and the retention ({@link ReportRetentionService}). */
@Module({})
export class ReportsWorkerModule {
  /** @param renderer the worker's report thread pool */
  static withRenderer(renderer: Type<ReportRenderer>): DynamicModule {
    return {
      module: ReportsWorkerModule,
      providers: [
        ReportKind,
        ReportFilesRepository,
        ReportRetentionService,
        renderer,
        { provide: ReportRenderer, useExisting: renderer },
      ],
      exports: [ReportRetentionService],
    };
  }
}
