import { AppConfig, Notification, OutboxEvent, OutboxSequence, WorkerHeartbeat, WorkerRun } from '@app/core';
import { Job } from '@app/jobs';
import { CheckIn, ClockEvent, GeofenceState, MemberLocation, Track, TrackShare } from '@app/locations';
import { ApiKey, Company, Member } from '@app/members';
import { Place } from '@app/places';
import { AlertFiring, AlertMemberState, AlertRule } from '@app/alerts';
import { Zone } from '@app/zones';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookSecret, WebhookSubscription } from '@app/webhooks';
import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

/** Every entity, listed explicitly (no globs: STYLE.md §12). */
export const ENTITIES = [
  Company,
  Member,
  ApiKey,
  OutboxEvent,
  OutboxSequence,
  Notification,
  WorkerHeartbeat,
  WorkerRun,
  Place,
  Job,
  MemberLocation,
  Track,
  TrackShare,
  CheckIn,
  ClockEvent,
  GeofenceState,
  Zone,
  AlertRule,
  AlertFiring,
  AlertMemberState,
  WebhookEndpoint,
  WebhookSecret,
  WebhookDelivery,
  WebhookAttempt,
  WebhookSubscription,
];

/**
 * The one TypeORM options object, used by both apps and the migration commands.
 * `synchronize` is off: the schema changes only through migrations.
 */
export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.DATABASE_URL,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false, // expected failures (unique violations) are handled; unexpected ones reach the exception filter's log
    extra: {
      max: config.DATABASE_POOL_SIZE,
      connectionTimeoutMillis: 5000,
      // a request never waits minutes on a lock or a dead server
      statement_timeout: 30000,
      // a backend whose client died (a worker killed mid-run) notices within 2 s even while it waits
      // on a lock, so it rolls back and frees its rows then, not after statement_timeout
      // (docs/worker-results.md, "A worker killed mid-run")
      options: '-c client_connection_check_interval=2000',
      application_name: 'fieldwork',
    },
  };
}
