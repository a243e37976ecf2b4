/** Realistic createjobs inputs, deterministic for a given seed. */

/** The UTC calendar day `offset` days from now, as YYYYMMDD. */
export function dayFromToday(offset: number): number {
  const d = new Date(Date.now() + offset * 86_400_000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

const STREETS = ['Main Street', 'Station Road', 'Mill Lane', 'Church Road', 'Park Avenue', 'Riverside Drive', 'Oak Close', 'High Street'];
const CITIES = ['Springfield 10001', 'Riverton 20445', 'Lakeside 30120', 'Hillview 41002', 'Brookfield 52011'];
const FIRST = ['Ana', 'Marko', 'Eva', 'Luka', 'Maja', 'Jan', 'Nina', 'Tim', 'Sara', 'Rok'];
const LAST = ['Novak', 'Horvat', 'Kovač', 'Krajnc', 'Zupan', 'Potočnik', 'Mlakar', 'Vidmar'];
const EQUIPMENT = ['Boiler X200', 'Heat pump HP-9', 'AC split 3.5 kW', 'Water heater 80 l', 'Solar inverter S5'];

export interface JobInput {
  destinationName: string;
  destinationText: string;
  destinationLat: number;
  destinationLng: number;
  day: number;
  windowStart: number;
  windowEnd: number;
  priority: number;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  textDispatcher: string;
  customFields: Array<{ key: string; val: string }>;
  worker?: string;
}

/**
 * One job of a batch. `worker` / `day` are chosen by the caller.
 * @param i the job's index (drives every other field)
 */
export function makeJob(i: number, day: number, worker?: string): JobInput {
  const first = FIRST[i % FIRST.length];
  const last = LAST[(i * 7) % LAST.length];
  const windowStart = 700 + (i % 10) * 100; // 07:00 … 16:00
  const job: JobInput = {
    destinationName: `${last} household (${i % 997})`,
    destinationText: `${1 + (i % 240)} ${STREETS[i % STREETS.length]}, ${CITIES[i % CITIES.length]}`,
    destinationLat: Math.round((46.0 + ((i * 37) % 1000) / 5000) * 1e6) / 1e6,
    destinationLng: Math.round((14.4 + ((i * 53) % 1000) / 4000) * 1e6) / 1e6,
    day,
    windowStart,
    windowEnd: windowStart + 200,
    priority: i % 6,
    contactName: `${first} ${last}`,
    contactPhone: `+386 1 ${String(200 + (i % 700)).padStart(3, '0')} ${String(1000 + ((i * 31) % 9000))}`,
    contactEmail: `${first.toLowerCase()}.${i}@example.test`,
    textDispatcher: i % 3 === 0 ? 'Ring twice; parking behind the building. Bring the spare gasket kit.' : '',
    customFields: [
      { key: 'orderRef', val: `PO-${2026}-${String(i).padStart(6, '0')}` },
      { key: 'equipment', val: EQUIPMENT[i % EQUIPMENT.length] },
      ...(i % 2 === 0 ? [{ key: 'accessCode', val: String(1000 + ((i * 13) % 9000)) }] : []),
    ],
  };
  if (worker !== undefined) job.worker = worker;
  return job;
}

/**
 * The createjobs batch: `n` jobs over the next 5 days, 60 % of them assigned round-robin to
 * `workers`, the rest unassigned.
 */
export function createBatch(n: number, workers: string[]): JobInput[] {
  const days = [1, 2, 3, 4, 5].map(dayFromToday);
  return Array.from({ length: n }, (_, i) => makeJob(i, days[i % days.length], i % 5 < 3 ? workers[i % workers.length] : undefined));
}
