/**
 * Notification kinds, checked by the compiler: each kind maps to whom a notification of that kind
 * goes (`memberId`, null = company-wide) and which job it names (`jobId`). Core declares the map
 * empty; each domain lib adds its kinds by module augmentation, beside the code that writes them:
 *
 * ```ts
 * declare module '@app/core' {
 *   interface NotificationKinds {
 *     route_changed: { memberId: string; jobId: string };
 *   }
 * }
 * ```
 *
 * Kinds are stored as `varchar(40)` and answered as is by `getnotifications`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface NotificationKinds {}

/** What every entry of {@link NotificationKinds} gives. */
export interface NotificationKindSpec {
  /** the member notified; null = company-wide */
  memberId: string | null;
  /** the job it is about (`tpl-<id>` for a template), if any */
  jobId?: string | null;
}

/** A notification kind some domain writes, e.g. `route_changed`. */
export type NotificationKind = keyof NotificationKinds;

/**
 * A notification to write, of kind `K` (by default any kind): its recipient and job checked
 * against the kind's entry.
 */
export type NotificationInput<K extends NotificationKind = NotificationKind> = {
  [P in K]: { companyId: string; kind: P } & NotificationKinds[P];
}[K];
