import { AuthContext, DomainError, RunUnfinishedError } from '@app/core';
import { ConnectorReportBody, REPORT_RULES, ReportsService, toConnectorReportError } from '@app/reports';
import { Body, Controller, HttpCode, Post, StreamableFile } from '@nestjs/common';
import { Caller, ConnectorAuth, ConnectorFiles, Examples } from '../envelope/decorators';
import { REPORT_FILES, reportFile } from './reports.controller';
import { CREATE_REPORT } from './reports.connector.examples';

/**
 * `POST /v1/reports` (CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md
 * "Reports"): createreport with the connector's names, answering the file as createreport does (same
 * `Content-Type` and `Content-Disposition`, the same worker run), errors in the connector's shape naming
 * its fields.
 */
@Controller('v1/reports')
@ConnectorAuth()
export class ReportsConnectorController {
  constructor(private readonly reports: ReportsService) {}

  /**
   * 200 with the file. A report that does not finish within REPORT_TIMEOUT_MS → 500 naming its
   * reportId (the action `getreport` answers the file once done: the connector has no 503).
   */
  @Post()
  @HttpCode(200)
  @ConnectorFiles(REPORT_FILES)
  @Examples(CREATE_REPORT)
  async create(@Caller() ctx: AuthContext, @Body() body: ConnectorReportBody): Promise<StreamableFile> {
    let stored;
    try {
      stored = await this.reports.createReport(ctx, body.request);
    } catch (err) {
      if (err instanceof RunUnfinishedError)
        throw new DomainError(
          'unavailable',
          `${err.message}; POST /api/getreport {reportId: "${err.runId}"} answers the file when it is done`,
        );
      throw toConnectorReportError(err, REPORT_RULES[body.type].subjects);
    }
    if (!('result' in stored)) throw new Error(`report ${stored.reportId} answered its state to a synchronous request`);
    return reportFile(stored);
  }
}
