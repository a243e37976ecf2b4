import { Readable } from 'node:stream';
import { AuthContext, DomainError, forbidden, invalid, notFound, RunState, RunUnfinishedError, WorkerResultsService } from '@app/core';
import { Injectable } from '@nestjs/common';
import { CreateReportDto } from './dto/create-report.dto';
import { PDF_MAX_ROWS, REPORT_RULES } from './report-types';
import { ReportResult } from './report-definition';
import { canReadReport, reportAccessDenial } from './report-policy';
import { ReportFilesRepository } from './report-files.repository';
import { ReportParams } from './report-run';
import { ReportRequestRead } from './reads/members-report-request.read';
import { tooManyRowsForPdf } from './report-errors';

/** How many unknown accounts an error names at most. */
const NAMED = 10;

/** A finished report's file: its descriptor and its bytes as a stream. */
export interface StoredReport {
  result: ReportResult;
  body: Readable;
}

/** A report not (yet) answered with its file: `{reportId, state}`. */
export interface ReportPending {
  reportId: string;
  state: RunState;
}

/**
 * createreport and getreport (spec "Reports"; CONTRACTS.md "Reports"): checks what the DTO could not
 * (accounts known in the company, roles, the pdf row count), queues the `report` run through worker
 * results, and answers the stored file.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reads: ReportRequestRead,
    private readonly runs: WorkerResultsService,
    private readonly files: ReportFilesRepository,
  ) {}

  /**
   * Checks and queues a report. Synchronous: waits for it (`REPORT_TIMEOUT_MS`) and answers the file;
   * `async: true`: answers `{reportId, state}` at once.
   * @throws DomainError invalid (unknown accounts named, pdf over {@link PDF_MAX_ROWS} rows), forbidden
   *   (a worker on others or on company-wide types), unavailable ({@link RunUnfinishedError} carrying
   *   the reportId) when the worker did not finish in time
   */
  async createReport(ctx: AuthContext, dto: CreateReportDto): Promise<StoredReport | ReportPending> {
    const rule = REPORT_RULES[dto.reporttype];
    const accounts = rule.subjects === 'none' ? [] : (dto.accounts ?? []);
    const memberIds = rule.subjects === 'members' ? await this.memberIds(ctx.companyId, accounts) : [];
    const placeIds = rule.subjects === 'places' ? await this.placeIds(ctx.companyId, accounts) : [];
    const denial = reportAccessDenial(ctx, rule.companyWide, memberIds);
    if (denial) throw forbidden(denial);
    const range = dto.range();
    const params: ReportParams = { type: dto.reporttype, format: dto.format, range, memberIds, placeIds, columns: dto.columns };
    if (dto.stopMinutes !== undefined) params.stopMinutes = dto.stopMinutes;
    if (dto.bom === false) params.bom = false;
    if (dto.format === 'pdf') await this.checkPdfRows(ctx, params);
    const owner = { companyId: ctx.companyId, memberId: ctx.memberId };
    const run = await this.runs.submit('report', params, owner, { profile: 'report' });
    if (dto.async) return { reportId: run.runId, state: 'queued' };
    const result = (await this.runs.await(run)) as ReportResult;
    return { result, body: this.files.stream(ctx.companyId, result.reportId) };
  }

  /**
   * A report by id: its file when done, `{reportId, state}` while queued or running, the stored error
   * when it failed.
   * @throws DomainError not_found for an unknown id (another company's, pruned, or a worker's look at
   *   someone else's), its stored error when failed, unavailable when it expired unfinished
   */
  async getReport(ctx: AuthContext, reportId: string): Promise<StoredReport | ReportPending> {
    const run = await this.runs.find(ctx.companyId, reportId);
    if (!run || run.kind !== 'report' || !canReadReport(ctx, run.memberId)) throw notFound(`data.reportId: report ${reportId}`);
    switch (run.state) {
      case 'queued':
      case 'running':
        return { reportId, state: run.state };
      case 'done': {
        const result = run.result as ReportResult;
        return { result, body: this.files.stream(ctx.companyId, reportId) };
      }
      case 'failed': {
        const e = run.error;
        if (e?.kind === 'unavailable') throw new RunUnfinishedError('report could not be queued (queue unavailable)', reportId, run.state);
        if (e?.kind) throw new DomainError(e.kind, e.message, e.field);
        throw new Error(`report failed: ${e?.message ?? 'unknown error'}`);
      }
      case 'expired':
        throw new DomainError('unavailable', `report did not finish within its run time (REPORT_MAX_RUN_MS); request it again`);
    }
  }

  /** Ids of the company's members named by uid or username (case-insensitive), in request order, without repeats. @throws invalid naming the unknown ones */
  private async memberIds(companyId: string, accounts: readonly string[]): Promise<string[]> {
    const rows = await this.reads.membersNamed(companyId, accounts);
    const byId = new Map(rows.map((r) => [r.id, r.id]));
    const byName = new Map(rows.map((r) => [r.username, r.id]));
    return this.resolve(accounts, (a) => byId.get(a) ?? byName.get(a.toLowerCase()), 'unknown accounts');
  }

  /** Ids of the company's live places named by uid, in request order, without repeats. @throws invalid naming the unknown ones */
  private async placeIds(companyId: string, accounts: readonly string[]): Promise<string[]> {
    const known = new Set(await this.reads.livePlacesNamed(companyId, accounts));
    return this.resolve(accounts, (a) => (known.has(a) ? a : undefined), 'unknown places');
  }

  private resolve(accounts: readonly string[], idOf: (account: string) => string | undefined, what: string): string[] {
    const unknown = accounts.filter((a) => idOf(a) === undefined);
    if (unknown.length) {
      const named = unknown.length > NAMED ? `${unknown.slice(0, NAMED).join(', ')} … (${unknown.length} in all)` : unknown.join(', ');
      throw invalid('data.accounts', `${what}: ${named}`);
    }
    return [...new Set(accounts.map((a) => idOf(a)!))];
  }

  /** The pdf row limit, counted before queueing by the type's `count` (types without one are stopped at the limit while rendering). */
  private async checkPdfRows(ctx: AuthContext, params: ReportParams): Promise<void> {
    const rows = await this.reads.countRows({ companyId: ctx.companyId, runId: '', memberId: ctx.memberId, params });
    if (rows !== null && rows > PDF_MAX_ROWS) throw tooManyRowsForPdf(rows);
  }
}
