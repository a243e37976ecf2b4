/**
 * The report pool's thread entry, loaded by every report thread from the compiled `dist` JS: lowers the
 * thread's priority and hands each job to the reports lib's thread body (`@app/reports/pure`: no Nest,
 * no TypeORM).
 */
import { isWorkerThread, workerData } from 'piscina';
import { lowerReportThreadPriority, reportThreadTask, type ReportThreadData } from '@app/reports/pure';

const data = workerData as ReportThreadData | undefined;
if (isWorkerThread && data) lowerReportThreadPriority(data.nice);

/** One job of the pool (see `reportThreadTask`). */
export default reportThreadTask(data);
