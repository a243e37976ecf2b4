import { Writable } from 'node:stream';
import type { ReportChunksRepository } from '../report-chunks.repository';

/** Bytes per stored chunk (one `report_chunks` row). */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * A Writable storing what is written to it as `report_chunks` rows of {@link CHUNK_BYTES} (the last
 * one shorter), in order, through its own `pg` client in autocommit: the file streams into PostgreSQL
 * as it is rendered, at most one chunk in memory ({@link ReportChunksRepository.insert}). The run's writing transaction later checks the
 * count ({@link ChunkSink.chunks}); chunks of a run that never finishes are pruned with the retention.
 */
export class ChunkSink extends Writable {
  private parts: Buffer[] = [];
  private pending = 0;
  /** chunks stored so far */
  chunks = 0;
  /** bytes written so far */
  size = 0;

  constructor(
    private readonly chunkStore: ReportChunksRepository,
    private readonly companyId: string,
    private readonly reportId: string,
  ) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.parts.push(chunk);
    this.pending += chunk.length;
    this.size += chunk.length;
    if (this.pending < CHUNK_BYTES) return done();
    this.flushFull().then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    const rest = Buffer.concat(this.parts);
    this.parts = [];
    this.pending = 0;
    (rest.length ? this.store(rest) : Promise.resolve()).then(() => done(), done);
  }

  private async flushFull(): Promise<void> {
    let all = Buffer.concat(this.parts);
    while (all.length >= CHUNK_BYTES) {
      await this.store(all.subarray(0, CHUNK_BYTES));
      all = all.subarray(CHUNK_BYTES);
    }
    this.parts = all.length ? [Buffer.from(all)] : [];
    this.pending = all.length;
  }

  private async store(data: Buffer): Promise<void> {
    await this.chunkStore.insert(this.companyId, this.reportId, this.chunks, data);
    this.chunks++;
  }
}
