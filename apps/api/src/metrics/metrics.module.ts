import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HttpMetrics } from './http.metrics';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics.registry';
import { SchedulerMetrics } from './scheduler.metrics';
import { SharedStateMetrics } from './shared-state.metrics';

/**
 * `GET /metrics` (CONTRACTS.md, "Operations"): request counts and latency for every response,
 * queue and delivery gauges read from shared state, the worker heartbeat age, Node process
 * metrics and the event-loop thread's time on a CPU and waiting for one (SchedulerMetrics). Needs
 * the global DataSource and TaskProducer (DatabaseModule, QueueModule.register()).
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [MetricsController],
  providers: [MetricsRegistry, HttpMetrics, SharedStateMetrics, SchedulerMetrics],
  exports: [MetricsRegistry],
})
export class MetricsModule {}
