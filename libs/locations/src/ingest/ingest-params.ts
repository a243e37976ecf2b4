import { advanceLatest } from './latest-location';
import type { Fix } from '../fix';
import type { LocationSource } from '../entities/member-location.entity';

/** One item of the ingest statement: one call's member (or device id), its fixes deduplicated by `ts`, and state. */
export interface IngestItem {
  /** null for a device lookup */
  companyId: string | null;
  /** the member id, or the device id */
  member: string;
  /** the call's fixes, no two with one `ts` ({@link dedupeByTs}) */
  fixes: readonly Fix[];
  source: LocationSource;
  /** ms, the receive time */
  now: number;
  device?: { connection_type?: number; android_id?: string; loc_gps_on?: boolean; loc_net_on?: boolean };
}

/**
 * The ingest statement's 32 parameters for `items` (in their order; see `INGEST_MEMBER_SQL` in
 * `ingest.repository.ts`): one array per item column ($1…$21), one per fix column ($22…$30), then the
 * numbers of items and of fixes ($31, $32).
 * @throws Error when `items` is empty
 */
export function ingestParams(items: readonly IngestItem[]): unknown[] {
  if (!items.length) throw new Error('ingestParams: no items');
  const cols: unknown[][] = Array.from({ length: 30 }, () => []);
  items.forEach((item, k) => {
    const { fixes } = item;
    const newest = fixes.length ? fixes.reduce((a, b) => (b.ts > a.ts ? b : a)) : null;
    const fresh = advanceLatest({ latest: null, anchor: null }, fixes);
    const d = item.device ?? {};
    const row = [
      item.companyId,
      item.member,
      item.now,
      newest?.ts ?? null,
      newest?.lat ?? null,
      newest?.lng ?? null,
      newest?.acc ?? null,
      newest?.dir ?? null,
      newest?.spd ?? null,
      newest?.elv ?? null,
      newest?.bat ?? null,
      item.source,
      fresh?.anchor?.ts ?? null,
      fresh?.anchor?.lat ?? null,
      fresh?.anchor?.lng ?? null,
      item.source === 'osmand' && fixes.length > 0,
      d.connection_type ?? null,
      d.android_id ?? null,
      d.loc_gps_on ?? null,
      d.loc_net_on ?? null,
      item.source === 'app',
    ];
    row.forEach((v, c) => cols[c].push(v));
    for (const f of fixes) {
      cols[21].push(k + 1);
      cols[22].push(f.ts);
      cols[23].push(f.lat);
      cols[24].push(f.lng);
      cols[25].push(f.acc);
      cols[26].push(f.dir);
      cols[27].push(f.spd);
      cols[28].push(f.elv);
      cols[29].push(f.bat);
    }
  });
  return [...cols, items.length, cols[21].length];
}
