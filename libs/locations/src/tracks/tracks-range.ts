import { invalid } from '@app/core';

/** The longest range gettracks and `GET /v1/tracks` read, ms (CONTRACTS.md "gettracks"): 31 days. */
export const MAX_TRACKS_RANGE_MS = 31 * 24 * 3600 * 1000;

/**
 * gettracks' range rule: `from` ≤ `until` ≤ `from` + 31 days (ms).
 * @param prefix the path the fields are named under (`data` on the action API, `query` on the connector)
 * @throws DomainError invalid naming `<prefix>.until`
 */
export function checkTracksRange(from: number, until: number, prefix: string): void {
  if (until < from) throw invalid(`${prefix}.until`, `must not be before ${prefix}.from`);
  if (until - from > MAX_TRACKS_RANGE_MS) throw invalid(`${prefix}.until`, `the range from ${prefix}.from may span at most 31 days`);
}
