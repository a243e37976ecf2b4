import { WorkerRunsRepository } from '@app/core';
import { Injectable } from '@nestjs/common';
import { ReportFilesRepository } from './report-files.repository';

/** Reports' retention (`REPORT_RETENTION_HOURS`, the worker's `prune-reports` task): files first, then their runs. */
@Injectable()
export class ReportRetentionService {
  constructor(
    private readonly files: ReportFilesRepository,
    private readonly runs: WorkerRunsRepository,
  ) {}

  /**
   * Deletes report files and finished report runs older than `before` (ms), and chunks no run will
   * ever claim (their run failed, expired or is gone) once they are that old.
   * @returns chunks and runs deleted
   */
  async prune(before: number): Promise<{ chunks: number; runs: number }> {
    const chunks = await this.files.deleteBefore(before);
    const runs = await this.runs.deleteFinished('report', before);
    return { chunks, runs };
  }
}
