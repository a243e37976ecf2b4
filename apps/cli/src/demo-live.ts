import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { wallClock } from '@app/core';
import { parseGpxFixes } from '@app/locations';
import { DEMO_SITES, DEMO_WORKER_USERNAME } from './demo';
import { buildStory, placeStory, TracePoint } from './demo-story';

/** The real recorded drive the demo replays (see `apps/cli/demo-data/README.md` for its source). */
export function demoTracePath(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'apps', 'cli', 'demo-data', 'around-visnjan-with-car.gpx');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) throw new Error('apps/cli/demo-data/around-visnjan-with-car.gpx not found');
  }
}

/** The drive's timed fixes, in time order. */
export function demoTrace(): TracePoint[] {
  return parseGpxFixes(readFileSync(demoTracePath(), 'utf8'));
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

const YARD = { name: 'Višnjan yard', address: 'The yard, 52463 Višnjan, Croatia', location: DEMO_SITES.yard, radius: 60 };

/** The zone the demo's alert rule watches: the hill north of the village, where the first job is. */
const NORTH_HILL = {
  name: 'Višnjan north hill',
  color: '#d97706',
  polygon: {
    type: 'Polygon',
    coordinates: [
      [
        [13.718, 45.279],
        [13.7235, 45.279],
        [13.7235, 45.2825],
        [13.718, 45.2825],
        [13.718, 45.279],
      ],
    ],
  },
};

/** The demo worker's day: parked 5 min at the yard, 25 at the boiler service (done), 15 at the radiator, 10 at the yard. */
const STOPS = [
  { name: 'yard', at: DEMO_SITES.yard, dwellMs: 5 * 60_000 },
  { name: 'Boiler service', at: DEMO_SITES.boilerService, dwellMs: 25 * 60_000 },
  { name: 'Leaking radiator', at: DEMO_SITES.leakingRadiator, dwellMs: 15 * 60_000 },
  { name: 'yard', at: DEMO_SITES.yard, dwellMs: 10 * 60_000 },
];
/** The job the worker marks done when he leaves it. */
const COMPLETED = 'Boiler service';

/** What the backfill did: places created, fixes accepted, and the day's story. */
export interface DemoReplay {
  places: number;
  zones: number;
  alerts: number;
  fixes: number;
  /** the story's first and last instants, ms */
  from: number;
  until: number;
}

/**
 * The live part of the demo, through the running api like any client (the dispatcher's key for the
 * set-up, the demo worker's for his phone):
 * 1. a place at each of today's jobs (linked to the job by `placeUid`) and at the yard; a zone (the
 *    hill of the first job) and an `enters_zone` alert rule on the demo worker;
 * 2. his day ({@link buildStory}): clock-in, his jobs accepted, the recorded drive with the car parked at
 *    the yard, the two jobs and the yard again (check-ins and check-outs at the places and jobs, stops,
 *    the zone's alert), the first job marked done as he leaves it, clock-out. Its last step lands
 *    `endBeforeMs` before now; the day is squeezed when it would otherwise start before the company's
 *    midnight ({@link placeStory}). Fixes go in batches of ≤ 50, in time order.
 * @throws Error naming the action when the api refuses a call
 */
export async function replayDemo(baseUrl: string, dispatcherKey: string, workerKey: string, endBeforeMs = 60_000): Promise<DemoReplay> {
  const { company } = (await action(baseUrl, dispatcherKey, 'getcompany', {})) as unknown as { company: { timezone: string } };
  const { jobs } = (await action(baseUrl, dispatcherKey, 'getjobs', {})) as unknown as {
    jobs: Array<{ id: string; destinationName: string; destinationText: string; destinationLat: number; destinationLng: number; worker?: string }>;
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
  await action(baseUrl, dispatcherKey, 'createplace', YARD);
  places++;
  const { id: zoneId } = (await action(baseUrl, dispatcherKey, 'createzone', NORTH_HILL)) as unknown as { id: string };
  await action(baseUrl, dispatcherKey, 'createalert', {
    title: 'Luka on the north hill',
    description: 'The demo worker enters the zone of the boiler service',
    action: 'enters_zone',
    zoneId,
    members: [DEMO_WORKER_USERNAME],
  });

  const own = jobs.filter((j) => j.worker?.toLowerCase() === DEMO_WORKER_USERNAME);
  const jobId = (name: string) => own.find((j) => j.destinationName === name)?.id;
  const { steps, durationMs } = buildStory(demoTrace(), STOPS);
  const endTs = Date.now() - endBeforeMs;
  const clock = wallClock(endTs, company.timezone);
  const when = placeStory(durationMs, endTs, ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 1000);

  let fixes = 0;
  let batch: Array<Record<string, number>> = [];
  const flush = async () => {
    if (!batch.length) return;
    const answer = (await action(baseUrl, workerKey, 'pushlocations', { locations: batch })) as unknown as { accepted: number };
    fixes += answer.accepted;
    batch = [];
  };
  for (const step of steps) {
    const ts = when(step.at);
    if (step.kind === 'fix') {
      batch.push({ ts, lat: step.lat, lng: step.lng, ...(step.elv !== null ? { elv: step.elv } : {}), acc: 5 });
      if (batch.length === 50) await flush();
      continue;
    }
    await flush();
    if (step.kind === 'clock') {
      await action(baseUrl, workerKey, 'pushlocations', { locations: [], tracking: step.on, tracking_ts: ts });
      const accepted = Object.fromEntries(own.map((j) => [j.id, { tsAccepted: ts }]));
      if (step.on && own.length) await action(baseUrl, workerKey, 'editjobs', { jobs: accepted });
    } else if (step.kind === 'leave' && step.stop === COMPLETED) {
      const id = jobId(COMPLETED);
      if (id) await action(baseUrl, workerKey, 'editjobs', { jobs: { [id]: { tsDoneSuccess: ts } } });
    }
  }
  await flush();
  return { places, zones: 1, alerts: 1, fixes, from: when(0), until: when(durationMs) };
}

/** The live loop sends a fix at least this often (ms). */
export const FOLLOW_FIX_MS = 5_000;

/**
 * After the backfill: the demo worker back on the road, in real time until `signal` aborts — clock-in,
 * then the recorded drive over and over (its fixes at their recorded spacing, a fix at least every
 * {@link FOLLOW_FIX_MS} where the recording has longer gaps, a minute parked at the yard between
 * laps), each fix stamped with the time it is sent. @returns the fixes accepted
 */
export async function followDemo(baseUrl: string, workerKey: string, signal: AbortSignal): Promise<number> {
  const trace = demoTrace();
  let sent = 0;
  const push = async (p: TracePoint) => {
    const answer = (await action(baseUrl, workerKey, 'pushlocations', {
      locations: [{ ts: Date.now(), lat: p.lat, lng: p.lng, ...(p.elv !== null ? { elv: p.elv } : {}), acc: 5 }],
    })) as unknown as { accepted: number };
    sent += answer.accepted;
  };
  const wait = (ms: number) => sleep(ms, undefined, { signal }).then(
    () => true,
    () => false,
  );
  await action(baseUrl, workerKey, 'pushlocations', { locations: [], tracking: true, tracking_ts: Date.now() });
  for (;;) {
    for (let i = 0; i < trace.length; i++) {
      let gap = i > 0 ? trace[i].ts - trace[i - 1].ts : 0;
      while (gap > FOLLOW_FIX_MS) {
        if (!(await wait(FOLLOW_FIX_MS))) return sent;
        await push(trace[i - 1]);
        gap -= FOLLOW_FIX_MS;
      }
      if (!(await wait(gap))) return sent;
      await push(trace[i]);
    }
    for (let s = 0; s < 60_000 / FOLLOW_FIX_MS; s++) {
      if (!(await wait(FOLLOW_FIX_MS))) return sent;
      await push(trace[trace.length - 1]);
    }
  }
}
