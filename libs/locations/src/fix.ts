/**
 * One position report of a member's device (CONTRACTS.md "Locations, devices, tracks"), as stored in
 * `location_fixes` and read back by track building, geofencing and reports.
 *
 * Units: `ts` ms since the epoch (UTC); `lat`/`lng` degrees (WGS84); `acc` m (rounded); `dir` degrees
 * 0..360 (rounded); `spd` m/s; `elv` m (rounded); `bat` percent 0..100 (rounded). An optional value the
 * device did not send is `null` (unknown).
 */
export interface Fix {
  ts: number;
  lat: number;
  lng: number;
  acc: number | null;
  dir: number | null;
  spd: number | null;
  elv: number | null;
  bat: number | null;
}

/**
 * The fix history table. It is **not** a TypeORM entity: it is natively partitioned by `ts` (one
 * partition per calendar month, UTC, named `location_fixes_pYYYYMM`), which TypeORM's schema diff does
 * not model, so the migration owns it and code reads and writes it with SQL.
 *
 * Columns: `company_id varchar(26)`, `member_id varchar(26)`, `ts bigint` (ms), `lat`, `lng` (double),
 * `acc`, `dir`, `elv`, `bat` (integer, null = unknown), `spd` (double, null = unknown), `received_at
 * bigint` (ms, when the api stored it). Primary key `(company_id, member_id, ts)`: a second fix of a
 * member at the same ms is a duplicate. No spatial index: fixes are read by member and time.
 *
 * A month's partition is created ahead by the `partitions` task and on demand by the
 * `location_fixes_ensure_partition(ts bigint)` SQL function (created by the migration); a month whose
 * end is older than `LOCATION_RETENTION_DAYS` is dropped whole.
 */
export const LOCATION_FIXES_TABLE = 'location_fixes';
