/**
 * Issue #12's benchmark (`BENCH_ONLY=alerts`): fix ingestion at the Locations issue's rate (the
 * geofence bench's background load, bench/geofence.ts) twice — once in a company with no zones and no
 * alert rules, once with 500 zones and 1,000 active rules targeting every worker — reporting the
 * ingestion rate each run achieved and the probe's latency: fix in → `placecheckin` in the outbox
 * (no rules), fix in → its `enters_zone` rule's `alerttriggered` in the outbox (with rules).
 * Targets: the rate with rules ≥ 80 % of the rate without; p99 with rules ≤ 2 s.
 */
import { benchGeofence, cpuNote, GEOFENCE_CONFIG, GeofenceFigures } from './geofence';
import type { TestApi } from '../test/support/api';
import type pg from 'pg';
import { fmt } from './stats';

export const ALERTS_SCENARIO = { zones: 500, rules: 1000 };

export interface AlertsFigures {
  plain: GeofenceFigures;
  alerts: GeofenceFigures;
}

export async function benchAlerts(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<AlertsFigures> {
  opts.log('alerts: run 1 of 2, no zones and no rules');
  const plain = await benchGeofence(opts);
  opts.log(`alerts: run 2 of 2, ${ALERTS_SCENARIO.zones} zones and ${ALERTS_SCENARIO.rules} rules`);
  const alerts = await benchGeofence({ ...opts, alerts: ALERTS_SCENARIO });
  return { plain, alerts };
}

/** The table rows and notes of the alerts figures. */
export function alertsReport(f: AlertsFigures): { rows: string[][]; notes: string[]; failed: number } {
  const rate = f.alerts.load.fixesPerSecond / f.plain.load.fixesPerSecond;
  const rateOk = rate >= 0.8;
  const p99Ok = f.alerts.p99 <= 2000;
  return {
    rows: [
      [
        `alerts: ingestion with ${ALERTS_SCENARIO.rules} rules and ${ALERTS_SCENARIO.zones} zones, fixes/s`,
        fmt(f.alerts.load.fixesPerSecond, 0),
        `${fmt(f.plain.load.fixesPerSecond, 0)} (no rules)`,
        `${fmt(rate, 2)}×`,
        '≥ 0.80×',
        rateOk ? 'PASS' : 'FAIL',
      ],
      [
        `alerts: fix in → alerttriggered in the outbox, p99 ms`,
        fmt(f.alerts.p99),
        `${fmt(f.plain.p99)} (placecheckin, no rules)`,
        `${fmt(f.alerts.p99 / f.plain.p99, 2)}×`,
        '≤ 2000',
        p99Ok ? 'PASS' : 'FAIL',
      ],
      [
        `alerts: fix in → alerttriggered in the outbox, p50 ms`,
        fmt(f.alerts.p50),
        `${fmt(f.plain.p50)} (placecheckin, no rules)`,
        '—',
        '—',
        'info',
      ],
    ],
    notes: [
      `alerts: each run ${GEOFENCE_CONFIG.samples} probes while ${GEOFENCE_CONFIG.phones} phones pushed batches of ${GEOFENCE_CONFIG.batch} at a target of ${GEOFENCE_CONFIG.fixesPerSecond} fixes/s ` +
        `(no rules: ${f.plain.load.requests} calls, ${f.plain.load.errors} errors, ${f.plain.load.skipped} skipped, ${f.plain.timedOut} probes timed out, ${f.plain.backlog} phones behind at the end; ` +
        `rules: ${f.alerts.load.requests} calls, ${f.alerts.load.errors} errors, ${f.alerts.load.skipped} skipped, ${f.alerts.timedOut} probes timed out, ${f.alerts.backlog} phones behind). ` +
        `Rules target every worker, cycling through the twelve firing actions (time-driven ones with a 1 h interval or an all-day window).`,
      `alerts, no rules: ${cpuNote(f.plain)}`,
      `alerts, rules: ${cpuNote(f.alerts)}`,
    ],
    failed: (rateOk ? 0 : 1) + (p99Ok ? 0 : 1),
  };
}
