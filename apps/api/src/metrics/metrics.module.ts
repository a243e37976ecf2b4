import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HttpMetrics } from './http.metrics';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics.registry';
import { SharedStateMetrics } from './shared-state.metrics';

/**
 * `GET /metrics` (CONTRACTS.md, "Operations"): request counts and latency for every response,
 * queue and delivery gauges read from shared state, the worker heartbeat age and Node process
 * metrics. Needs the global DataSource and TaskProducer (DatabaseModule, QueueModule.register()).
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [MetricsController],
  providers: [MetricsRegistry, HttpMetrics, SharedStateMetrics],
  exports: [MetricsRegistry],
})
export class MetricsModule {}
