import { Injectable, Logger, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newEventId } from '../ids';
import { OutboxEventInput } from './outbox-events';
import { OutboxRepository } from './outbox.repository';
import { QueueName } from '../queue/queues';
import { TaskProducer } from '../queue/task-producer.service';
import { AppConfig } from '../config/env';

/**
 * The transactional outbox (CONTRACTS.md, "Events and webhooks"): {@link appendMany} writes the events
 * with the caller's transaction manager, so an event exists if and only if the change commits.
 */
@Injectable()
export class OutboxService {
  private readonly logger = new Logger('Outbox');

  /**
   * `producer` is absent in the CLI (no Redis there): the worker's reconciler wakes those events.
   * `config` only for its test fault `TEST_KILL_BEFORE_WAKE` (absent: off).
   */
  constructor(
    private readonly repo: OutboxRepository,
    @Optional() private readonly producer?: TaskProducer,
    @Optional() private readonly config?: AppConfig,
  ) {}

  /**
   * Wakes delivery for events whose transaction committed: one `wake` task, not awaited (a Redis
   * outage never fails or slows the request; the worker's reconciler finds the deliveries anyway).
   */
  wake(eventIds: string[]): void {
    if (!eventIds.length || !this.producer) return;
    if (this.config?.TEST_KILL_BEFORE_WAKE && this.config.NODE_ENV === 'test') {
      // the durability spec's fault: the events are committed, their wake-up is never enqueued
      process.kill(process.pid, 'SIGKILL');
    }
    this.producer
      .add(QueueName.WebhookDelivery, 'wake', { eventIds })
      .catch((err: Error) => this.logger.warn(`could not wake delivery of ${eventIds.length} events: ${err.message}`));
  }

  /**
   * Records several events in the caller's transaction with one statement (the order of `events`
   * is kept in their ids). @returns the events' ids in the same order.
   */
  async appendMany(manager: EntityManager, events: OutboxEventInput[]): Promise<string[]> {
    if (!events.length) return [];
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.appendMany must be called inside a transaction');
    }
    const ids = events.map(() => newEventId());
    await this.repo.insertMany(manager, ids, events);
    return ids;
  }
}
