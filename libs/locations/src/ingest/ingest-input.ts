import type { Fix } from '../fix';
import type { LocationSource } from '../entities/member-location.entity';

/** `pushlocations`' `device`: the details `locate` answers with `withDetails`; only the ones sent change. */
export interface DeviceDetails {
  connection_type?: number;
  android_id?: string;
  loc_gps_on?: boolean;
  loc_net_on?: boolean;
}

/** One ingestion call, its fixes already validated ({@link validateFixes}). */
export interface IngestInput {
  companyId: string;
  memberId: string;
  /** valid fixes in the order sent (duplicates by `ts` allowed: counted) */
  fixes: readonly Fix[];
  /** `app` = pushlocations; `osmand` = Traccar Client (counts as tracking, fires no clock events, no pings) */
  source: LocationSource;
  /** the phone's reported tracking state (pushlocations only) */
  tracking?: boolean;
  /** ms the tracking state changed on the phone; default the receive time */
  trackingTs?: number;
  device?: DeviceDetails;
  /** ms, the receive time (the server's clock) */
  now: number;
}

/** What one ingestion did. */
export interface IngestResult {
  /** fixes newly stored */
  accepted: number;
  /** fixes already stored for the member at the same `ts` (from an earlier call or earlier in this one) */
  duplicates: number;
  /** a `locate` ping was pending and is delivered by this answer */
  ping: boolean;
  /** the clock event fired, if any */
  clock?: 'clockin' | 'clockout';
}

/** The fixes with the first of each `ts` kept (order kept), and how many were dropped as repeats. */
export function dedupeByTs(fixes: readonly Fix[]): { unique: Fix[]; duplicates: number } {
  const seen = new Set<number>();
  const unique: Fix[] = [];
  for (const f of fixes) {
    if (seen.has(f.ts)) continue;
    seen.add(f.ts);
    unique.push(f);
  }
  return { unique, duplicates: fixes.length - unique.length };
}
