/**
 * Deep links under `/console` (the api answers the page for all of them): `/console`,
 * `/console/day/YYYYMMDD`, and either `/job/<id>` or `/member/<uid>` after the day.
 */
export interface Route {
  day: number | null;
  job: string | null;
  member: string | null;
}

const ID = '([A-Za-z0-9_-]{1,64})';
const PATTERN = new RegExp(`^/console(?:/day/(\\d{8})(?:/(job|member)/${ID})?)?/?$`);

export function parseRoute(path: string): Route {
  const m = PATTERN.exec(path);
  if (!m) return { day: null, job: null, member: null };
  return { day: m[1] ? Number(m[1]) : null, job: m[2] === 'job' ? m[3] : null, member: m[2] === 'member' ? m[3] : null };
}

export function formatRoute(r: Route): string {
  if (!r.day) return '/console';
  const tail = r.job ? `/job/${r.job}` : r.member ? `/member/${r.member}` : '';
  return `/console/day/${r.day}${tail}`;
}
