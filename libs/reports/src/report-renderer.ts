import type { RenderAnswer, RenderJob } from './report-run';

/**
 * Renders a report job off the worker's event loop (the worker app provides it: a thread pool of
 * `REPORT_THREADS` threads, apart from the CPU pool, so a long report never holds dispatch back);
 * absent in the api.
 */
export abstract class ReportRenderer {
  abstract render(job: RenderJob): Promise<RenderAnswer>;
}
