/**
 * A transaction id as PostgreSQL's `xid8` (64-bit, decimal text: what `pg_snapshot_xmin` answers)
 * cut to the 32-bit `xid` that a row's `xmin` and `age()` take (decimal text).
 *
 * Change detection by `xmin` (docs/locate.md, "Which rows changed"; docs/live.md, "Positions"): a row
 * version committed after a read whose snapshot had `xmin` = h has `age(xmin) <= age(h)`; the 32-bit
 * comparison through `age()` is right while h is less than 2^31 transactions old.
 */
export function xid32(xid8: string): string {
  return (BigInt(xid8) % 4294967296n).toString();
}
