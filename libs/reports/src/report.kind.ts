import { DomainError, RunKindRegistry } from '@app/core';
import { Injectable, OnModuleInit } from '@nestjs/common';
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
  constructor(
    private readonly registry: RunKindRegistry,
    private readonly renderer: ReportRenderer,
    private readonly files: ReportFilesRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register('report', {
      compute: async (params, ctx): Promise<ReportResult> => {
        const answer = await this.renderer.render({ companyId: ctx.companyId, runId: ctx.runId, memberId: ctx.memberId!, params });
        if ('domainError' in answer) {
          const e = answer.domainError;
          throw new DomainError(e.kind, e.message, e.field, e.rule);
        }
        const { type, format, range } = params;
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
