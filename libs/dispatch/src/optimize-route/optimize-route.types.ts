import type { JobView } from '@app/jobs';
import type { GeoPoint } from '../types';

/**
 * The `optimizeroute` run's parameters: what the api resolved and checked — the worker trusts them
 * (the member exists in the run's company and the caller may optimize its route; with
 * `startEndAtCompany`, the company's location as the api found it).
 */
export type OptimizeRouteParams = {
  /** The route's member (resolved from `account`). */
  memberId: string;
  /** YYYYMMDD, the company's time zone */
  day: number;
} & (
  | { startEndAtCompany: false }
  | {
      startEndAtCompany: true;
      /** degrees: the company's location, the closed tour's start and end */
      companyLocation: GeoPoint;
    }
);

/** optimizeroute's answer beside `status`: the day's jobs in their new order. */
export interface OptimizeRouteAnswer {
  jobs: JobView[];
}

declare module '@app/core' {
  interface RunKinds {
    optimizeroute: { params: OptimizeRouteParams; result: OptimizeRouteAnswer };
  }
}
