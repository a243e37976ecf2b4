import { AuthContext, RunState, RunUnfinishedError } from '@app/core';
import { CreateReportDto, GetReportDto, REPORT_CONTENT_TYPES, ReportPending, ReportsService, StoredReport } from '@app/reports';
import { Controller, Res, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { Action, ActionFiles, Caller, Data } from '../envelope/decorators';
import { statusOf } from '../envelope/errors';

/** A report not answered with its file (async, or still running): `{status: 0, reportId, state}`. */
export interface ReportStateAnswer {
  status: 0;
  reportId: string;
  state: RunState;
}

/** The files createreport, getreport and `POST /v1/reports` answer. */
export const REPORT_FILES = {
  types: [...new Set(Object.values(REPORT_CONTENT_TYPES))],
  description: 'the report file (`Content-Disposition: attachment; filename="<type>_<from>_<until>.<ext>"`)',
};

/**
 * createreport and getreport (spec "Reports"; CONTRACTS.md "Reports"): the file itself with the pinned
 * `Content-Type` and `Content-Disposition`, streamed from PostgreSQL; `{status: 0, reportId, state}`
 * for `async: true` and for reports still running; a synchronous call past `REPORT_TIMEOUT_MS` →
 * -99/503 with the `reportId` to fetch it by.
 */
@Controller('api')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Action('createreport')
  @ActionFiles(REPORT_FILES)
  async createreport(
    @Caller() ctx: AuthContext,
    @Data() dto: CreateReportDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile | ReportStateAnswer | ReportUnfinishedAnswer> {
    try {
      return answer(await this.reports.createReport(ctx, dto));
    } catch (err) {
      if (!(err instanceof RunUnfinishedError)) throw err;
      const { status, http } = statusOf('unavailable');
      res.status(http);
      return { status, error: err.message, reportId: err.runId };
    }
  }

  @Action('getreport')
  @ActionFiles(REPORT_FILES)
  async getreport(@Caller() ctx: AuthContext, @Data() dto: GetReportDto): Promise<StreamableFile | ReportStateAnswer> {
    return answer(await this.reports.getReport(ctx, dto.reportId));
  }
}

/** -99/503: the report did not finish in the synchronous wait; `getreport {reportId}` answers it later. */
export interface ReportUnfinishedAnswer {
  status: number;
  error: string;
  reportId: string;
}

function answer(r: StoredReport | ReportPending): StreamableFile | ReportStateAnswer {
  if (!('result' in r)) return { status: 0, reportId: r.reportId, state: r.state };
  return reportFile(r);
}

/** A finished report as the answer: its bytes with the pinned `Content-Type` and `Content-Disposition` (CONTRACTS.md "Reports"). */
export function reportFile(r: StoredReport): StreamableFile {
  return new StreamableFile(r.body, {
    type: r.result.contentType,
    disposition: `attachment; filename="${r.result.fileName}"`,
    length: r.result.size,
  });
}
