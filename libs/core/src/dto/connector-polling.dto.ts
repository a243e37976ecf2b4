import { IsInt, Min } from 'class-validator';
import { QueryInt } from '../validation/dto-markers';
import { MsNotSeconds, Optional } from '../validation/validation';

/** A connector polling page: default and largest `limit` (larger values are clamped, as `/v1/jobs` does). */
export const CONNECTOR_POLL_LIMIT = 100;

/**
 * The query string every connector polling trigger takes (`GET /v1/checkins`, `/v1/clock-events`,
 * `/v1/alert-firings`; docs/connector.md, "Polling triggers"), strictly typed as `/v1/jobs`' is;
 * extend it with the route's own filters.
 */
export class ConnectorPollingQueryDto {
  /** ms, inclusive, on the items' `createdAt` (their commit-ordered stamp); absent: the newest items */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0 (ms)' })
  @Min(0, { message: 'must be an integer ≥ 0 (ms)' })
  @MsNotSeconds()
  createdSince?: number;

  /** default 100; larger values are clamped to 100 */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  limit?: number;
}

/** A polling query's page size: `limit` clamped to {@link CONNECTOR_POLL_LIMIT}, which is also its default. */
export function connectorPollLimit(limit: number | undefined): number {
  return Math.min(limit ?? CONNECTOR_POLL_LIMIT, CONNECTOR_POLL_LIMIT);
}
