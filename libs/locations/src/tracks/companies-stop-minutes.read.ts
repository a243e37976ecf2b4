import { namedQuery, Queryable } from '@app/core';

/**
 * The track builder's read of a company setting: `companies.stop_minutes` (the members lib's table;
 * CONTRACTS.md "Wave 3: reports and the demo"), the minutes a member stays within 100 m for a stop —
 * the one threshold of track splitting and the stops reports. Read inside the builder's transaction
 * (`db`), one primary-key lookup per rebuild, so a change applies to the next rebuild.
 * @returns minutes (1–240), or null when the company has none of its own (then the server's
 *   TRACK_STOP_MINUTES applies) or is unknown
 */
export async function readCompanyStopMinutes(db: Queryable, companyId: string): Promise<number | null> {
  const [row] = await namedQuery<{ stop_minutes: number | null }>(
    db,
    'fieldwork_tracks_stop_minutes',
    `SELECT stop_minutes FROM companies WHERE id = $1`,
    [companyId],
  );
  return row?.stop_minutes ?? null;
}
