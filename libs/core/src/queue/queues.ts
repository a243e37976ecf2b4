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
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const ALL_QUEUES: QueueName[] = Object.values(QueueName);

/** Every task name with its payload, per queue. */
export interface TaskPayloads {
  [QueueName.Maintenance]: {
    'prune-invitations': { before?: number };
  };
  [QueueName.WebhookDelivery]: {
    /** events committed: enqueue a drain for each endpoint they have deliveries to */
    wake: { eventIds: string[] };
    /** deliver an endpoint's due deliveries, in batches of its free in-flight slots */
    drain: { endpointId: string };
    /** repeatable: release dead claims, re-enqueue what Redis lost */
    reconcile: Record<string, never>;
    /** repeatable: delete attempts, deliveries and events past the retention */
    prune: Record<string, never>;
  };
  [QueueName.Reports]: {
    /** a worker-results run (a report); task id = run id, one attempt (RUN_TASK_OPTIONS) */
    run: { companyId: string; runId: string };
  };
  [QueueName.Dispatch]: {
    /** a worker-results run (dispatch); task id = run id, one attempt (RUN_TASK_OPTIONS) */
    run: { companyId: string; runId: string };
  };
}

export type TaskName<Q extends QueueName> = keyof TaskPayloads[Q] & string;
export type TaskPayload<Q extends QueueName, T extends TaskName<Q>> = TaskPayloads[Q][T];

/** Defaults set once for every task a producer adds (STYLE.md §7). */
export const DEFAULT_TASK_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: false,
} as const;
