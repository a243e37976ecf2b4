import type { DefaultJobOptions } from 'bullmq';

/**
 * Queue names and typed task payloads (STYLE.md §6). "Job" is a domain word here, so the queue
 * side says queue / task / processor.
 */
export const QueueName = {
  /** Housekeeping: pruning expired invitations and, later, outbox/attempt rows. */
  Maintenance: 'maintenance',
  /** Webhook delivery (the webhooks work). */
  WebhookDelivery: 'webhook-delivery',
  /** Report generation (the reports work). */
  Reports: 'reports',
  /** Clustering, auto-assign and route optimisation (the dispatch work). */
  Dispatch: 'dispatch',
  /** Location post-processing of new fixes: geofence check-ins, fix partitions (the locations work). */
  Locations: 'locations',
  /** Track building, debounced per member and run one at a time per worker (the locations work). */
  Tracks: 'tracks',
  /** Time-driven alert evaluation (the alerts work): a repeatable `tick`. */
  Alerts: 'alerts',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const ALL_QUEUES: QueueName[] = Object.values(QueueName);

/** Every task name with its payload, per queue. */
export interface TaskPayloads {
  [QueueName.Maintenance]: {
    'prune-invitations': { before?: number };
    /** deletes report files and finished report runs older than `before` (ms; default now − REPORT_RETENTION_HOURS) */
    'prune-reports': { before?: number };
  };
  [QueueName.WebhookDelivery]: {
    /** events committed: enqueue a drain for each endpoint they have deliveries to */
    wake: { eventIds: string[] };
    /** deliver an endpoint's due deliveries, in batches of its free in-flight slots */
    drain: { endpointId: string; companyId?: string };
    /** deliver the due deliveries of every REST hook subscription of a company, each up to its free in-flight slots */
    drainhooks: { companyId: string };
    /** repeatable: delete attempts, deliveries and events past the retention */
    prune: Record<string, never>;
  };
  [QueueName.Reports]: {
    /** a worker-results run (a report); task id = run id, one attempt (RUN_TASK_OPTIONS below) */
    run: { companyId: string; runId: string };
  };
  [QueueName.Dispatch]: {
    /** a worker-results run (dispatch); task id = run id, one attempt (RUN_TASK_OPTIONS below) */
    run: { companyId: string; runId: string };
  };
  [QueueName.Locations]: {
    /**
     * fixes of one member were stored (ts range of the accepted ones, ms): build its tracks and
     * evaluate its geofences. Idempotent: the processor works from the stored fixes and its own
     * state, so a task retried or run twice changes nothing.
     */
    fixes: { companyId: string; memberId: string; fromTs: number; toTs: number };
    /**
     * the members whose fixes one api process stored within one `LOCATIONS_TASK_WINDOW_MS` (each once,
     * with the ts range of its calls' accepted fixes, ms): what the api sends since 2026-11-28 (one
     * task per window instead of one `fixes` task per member; docs/locations-ingest.md, *Fixes
     * task*). The worker runs each member as a `fixes` task; `fixes` itself is still run for tasks
     * queued by an older api. Idempotent like `fixes`.
     */
    batch: { members: Array<{ companyId: string; memberId: string; fromTs: number; toTs: number }> };
    /** repeatable: create the coming months' `location_fixes` partitions, drop those past the retention */
    partitions: Record<string, never>;
  };
  [QueueName.Tracks]: {
    /**
     * (re)build the member's tracks from `fromTs` on (ms; the 10-minute bucket of the first new fix):
     * debounced per member and bucket (the api adds it delayed, deduplicated), so a phone reporting
     * every second costs one rebuild per delay, not one per call. Idempotent like `fixes`.
     */
    build: { companyId: string; memberId: string; fromTs: number; toTs: number };
  };
  [QueueName.Alerts]: {
    /**
     * evaluate the time-driven alert rules of every company at `now` (ms; absent = the clock when it
     * runs — tests pass their own). Repeatable (a scheduler with a fixed id, re-created by every
     * worker); safe to run twice or on two workers at once (firings are unique per occurrence).
     */
    tick: { now?: number };
  };
}

export type TaskName<Q extends QueueName> = keyof TaskPayloads[Q] & string;
export type TaskPayload<Q extends QueueName, T extends TaskName<Q>> = TaskPayloads[Q][T];

/** The task options every queue starts from (STYLE.md §7): retried with backoff, failures kept for inspection. */
export const DEFAULT_TASK_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: false,
} as const satisfies DefaultJobOptions;

/**
 * A worker-results run's task (CONTRACTS.md, "Worker results"): ONE attempt (a retry could write after
 * the client was told "nothing was changed"; the run row, not the task, is the truth), kept an hour
 * when done and a day when failed. The caller adds it with the run id as `jobId`, so a repeated add
 * never makes a second task.
 */
const RUN_TASK_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600 },
} as const satisfies DefaultJobOptions;

/** One queue's task options: its defaults (also for the tasks its schedulers make), and per-task overrides. */
export interface QueueTaskOptions<Q extends QueueName> {
  defaults: DefaultJobOptions;
  tasks?: { [T in TaskName<Q>]?: DefaultJobOptions };
}

/**
 * Each queue's task options, set here and nowhere else: the queue is registered with `defaults`
 * (so scheduled tasks get them too) and {@link TaskProducer} adds each task with its override.
 * Callers pass only what is about the one task (`jobId`, `delay`). A new queue is one entry in
 * {@link QueueName}, one in {@link TaskPayloads} and one here.
 */
export const TASK_OPTIONS: { [Q in QueueName]: QueueTaskOptions<Q> } = {
  [QueueName.Maintenance]: { defaults: DEFAULT_TASK_OPTIONS },
  [QueueName.WebhookDelivery]: {
    defaults: DEFAULT_TASK_OPTIONS,
    tasks: {
      // wake-ups and drains are only hints (the delivery rows in PostgreSQL are the truth, and the
      // reconciler re-enqueues what is lost): never kept, a drain never retried by BullMQ
      wake: { attempts: 3, removeOnComplete: true, removeOnFail: true },
      drain: { attempts: 1, removeOnComplete: true, removeOnFail: true },
      drainhooks: { attempts: 1, removeOnComplete: true, removeOnFail: true },
    },
  },
  [QueueName.Reports]: { defaults: DEFAULT_TASK_OPTIONS, tasks: { run: RUN_TASK_OPTIONS } },
  [QueueName.Dispatch]: { defaults: DEFAULT_TASK_OPTIONS, tasks: { run: RUN_TASK_OPTIONS } },
  [QueueName.Locations]: {
    defaults: DEFAULT_TASK_OPTIONS,
    // a fixes task is a hint to work from the stored fixes: retried, then kept a day for inspection
    tasks: {
      fixes: { attempts: 5, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } },
    },
  },
  [QueueName.Tracks]: {
    defaults: DEFAULT_TASK_OPTIONS,
    tasks: { build: { attempts: 5, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } } },
  },
  [QueueName.Alerts]: {
    defaults: DEFAULT_TASK_OPTIONS,
    // a tick is re-run by the next one anyway (it catches up over a lookback): few retries, not kept
    tasks: { tick: { attempts: 2, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } } },
  },
};

/** The options a task of `queue` named `task` is added with (the queue's defaults, then the task's override). */
export function taskOptions<Q extends QueueName>(queue: Q, task: TaskName<Q>): DefaultJobOptions {
  const entry: QueueTaskOptions<Q> = TASK_OPTIONS[queue];
  return { ...entry.defaults, ...entry.tasks?.[task] };
}
