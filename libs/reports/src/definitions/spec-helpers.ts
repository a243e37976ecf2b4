/** Test helpers of the definitions' specs (not exported by the lib): a fake {@link ReportDb}. */
import type { Fix } from '@app/locations/pure';
import { batchesOf, type ReportDb } from '../report-definition';

/**
 * A ReportDb whose cursor answers a member's fixes as the fixes query does (params `[company,
 * member, fromMs, untilMs]`, ts as text, oldest first); `query` answers `answer(sql, params)` (default
 * none). Every statement is recorded in `queries`.
 */
export function fakeFixDb(
  fixesByMember: Record<string, Fix[]>,
  answer: (sql: string, params: unknown[]) => unknown[] = () => [],
): ReportDb & { queries: string[] } {
  const queries: string[] = [];
  const db: ReportDb & { queries: string[] } = {
    queries,
    async query<T>(sql: string, params: unknown[]): Promise<T[]> {
      queries.push(sql);
      return answer(sql, params) as T[];
    },
    async *cursor<T>(sql: string, params: unknown[]): AsyncIterable<T> {
      queries.push(sql);
      const [, member, from, until] = params as [string, string, number, number];
      const rows = (fixesByMember[member] ?? []).filter((f) => f.ts >= from && f.ts < until).sort((a, b) => a.ts - b.ts);
      for (const f of rows) yield { ...f, ts: String(f.ts) } as unknown as T;
    },
    batches: <T>(sql: string, params: unknown[]) => batchesOf(db.cursor<T>(sql, params)),
  };
  return db;
}
