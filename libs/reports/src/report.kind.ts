import { DomainError, RunKindRegistry } from '@app/core';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ReportResult } from './report-definition';
import { ReportFilesRepository } from './report-files.repository';
import { ReportRenderer } from './report-renderer';
import { REPORT_CONTENT_TYPES, reportFileName } from './report-types';

/**
 * The `report` run kind (CONTRACTS.md "Reports", "Worker results"): `compute` hands the job to a
 * report thread, which streams the file into `report_chunks`; `write`, in the run's transaction,
 * checks every chunk is there and answers the file's descriptor as the run's result.
 */
@Injectable()
export class ReportKind implements OnModuleInit {
  private readonly logger = new Logger('Reports');

  constructor(
    private readonly registry: RunKindRegistry,
    private readonly renderer: ReportRenderer,
    private readonly files: ReportFilesRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register('report', {
      compute: async (params, ctx): Promise<ReportResult> => {
        const started = performance.now();
        const answer = await this.renderer.render({
          companyId: ctx.companyId,
          runId: ctx.runId,
          memberId: ctx.memberId!,
          params,
          readLsn: ctx.readLsn,
        });
        if ('domainError' in answer) {
          const e = answer.domainError;
          throw new DomainError(e.kind, e.message, e.field, e.rule);
        }
        const { type, format, range } = params;
        this.logger.log({
          msg: `report ${ctx.runId} (${type}, ${format}): ${answer.outcome.rows} rows read from the ${answer.readFrom}`,
          reportId: ctx.runId,
          readFrom: answer.readFrom,
          rows: answer.outcome.rows,
          ms: Math.round(performance.now() - started),
        });
        return {
          reportId: ctx.runId,
          type,
          format,
          fileName: reportFileName(type, format, range?.from, range?.until),
          contentType: REPORT_CONTENT_TYPES[format],
          ...answer.outcome,
        };
      },
      write: async (manager, result: ReportResult, ctx) => {
        const n = await this.files.countChunks(manager, ctx.companyId, ctx.runId);
        if (n !== result.chunks) throw new Error(`report ${ctx.runId}: ${n} chunks stored, ${result.chunks} written`);
        return result;
      },
    });
  }
}
