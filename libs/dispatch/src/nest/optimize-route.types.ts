import type { JobView } from '@app/jobs';

/** The `optimizeroute` run's parameters: what the api resolved and checked. */
export interface OptimizeRouteParams {
  /** The route's member (resolved from `account`). */
  memberId: string;
  /** YYYYMMDD, the company's time zone */
  day: number;
  startEndAtCompany: boolean;
}

/** optimizeroute's answer beside `status`: the day's jobs in their new order. */
export interface OptimizeRouteAnswer {
  jobs: JobView[];
}

declare module '@app/core' {
  interface RunKinds {
    optimizeroute: { params: OptimizeRouteParams; result: OptimizeRouteAnswer };
  }
}
