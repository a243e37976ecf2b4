import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseGpxFixes } from '@app/locations';

/** The real recorded drive the demo replays (see `apps/cli/demo-data/README.md` for its source). */
export function demoTracePath(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'apps', 'cli', 'demo-data', 'around-visnjan-with-car.gpx');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) throw new Error('apps/cli/demo-data/around-visnjan-with-car.gpx not found');
  }
}

interface ActionAnswer {
  status: number;
  [k: string]: unknown;
}

async function action(baseUrl: string, key: string, name: string, data: unknown): Promise<ActionAnswer> {
  const res = await fetch(`${baseUrl}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'API-Key': key },
    body: JSON.stringify({ data }),
  });
  const body = (await res.json()) as ActionAnswer;
  if (body.status !== 0) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Two places of the replayed drive: where it starts and ends, and where it stops for ~2 min. */
const TRACE_PLACES = [
  { name: 'Višnjan yard', address: 'Višnjan, Istria', location: { lat: 45.27335, lng: 13.71415 }, radius: 60 },
  { name: 'Višnjan customer', address: 'Višnjan, Istria', location: { lat: 45.27632, lng: 13.7198 }, radius: 60 },
];

/**
 * The live part of the demo, through the running api like any client: a place at each of today's
 * demo jobs (linked to the job by `placeUid`) and at the replayed drive's yard and stop, then the
 * real trace pushed through `pushlocations` by the worker (tracking switched on first, so a clock-in
 * is recorded), shifted to end `endBeforeMs` before now, in batches of 50 fixes.
 * @returns how many places were created and fixes accepted.
 */
export async function replayDemo(
  baseUrl: string,
  dispatcherKey: string,
  workerKey: string,
  endBeforeMs = 60_000,
): Promise<{ places: number; fixes: number }> {
  const { jobs } = (await action(baseUrl, dispatcherKey, 'getjobs', {})) as unknown as {
    jobs: Array<{ id: string; destinationName: string; destinationText: string; destinationLat: number; destinationLng: number }>;
  };
  let places = 0;
  const links: Record<string, { placeUid: string }> = {};
  for (const job of jobs) {
    const { uid } = (await action(baseUrl, dispatcherKey, 'createplace', {
      name: job.destinationName,
      address: job.destinationText,
      location: { lat: job.destinationLat, lng: job.destinationLng },
      radius: 100,
    })) as unknown as { uid: string };
    links[job.id] = { placeUid: uid };
    places++;
  }
  if (Object.keys(links).length) await action(baseUrl, dispatcherKey, 'editjobs', { jobs: links });
  for (const place of TRACE_PLACES) {
    await action(baseUrl, dispatcherKey, 'createplace', place);
    places++;
  }

  const points = parseGpxFixes(readFileSync(demoTracePath(), 'utf8'));
  const shift = Date.now() - endBeforeMs - points[points.length - 1].ts;
  await action(baseUrl, workerKey, 'pushlocations', { locations: [], tracking: true, tracking_ts: points[0].ts + shift - 1000 });
  let fixes = 0;
  for (let i = 0; i < points.length; i += 50) {
    const batch = points
      .slice(i, i + 50)
      .map((p) => ({ ts: p.ts + shift, lat: p.lat, lng: p.lng, ...(p.elv !== null ? { elv: p.elv } : {}), acc: 5 }));
    const answer = (await action(baseUrl, workerKey, 'pushlocations', { locations: batch })) as unknown as { accepted: number };
    fixes += answer.accepted;
  }
  return { places, fixes };
}
