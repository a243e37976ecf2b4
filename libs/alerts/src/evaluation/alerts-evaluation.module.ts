import { GeofenceModule, LocationsModule } from '@app/locations';
import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { AlertsClock } from './alerts-clock.service';
import { AlertsFixConsumer } from './alerts-fix-consumer';
import { AlertsCheckListener } from './check-listener';
import { EvaluationRepository } from './evaluation.repository';
import { FiringWriter } from './firing-writer';
import { RulesCache } from './rules-cache';

/**
 * Alert evaluation in the worker (docs/alerts-evaluation.md): the `alerts` fix participant (zones,
 * battery, still periods), the place-check listener (`checks_*`), the clock (time-driven rules) and
 * the firing writer. The participant and the listener register themselves with the locations lib's
 * registries; the worker's Alerts processor calls {@link AlertsClock}.
 */
@Module({
  imports: [LocationsModule, GeofenceModule, PlacesModule],
  providers: [EvaluationRepository, RulesCache, FiringWriter, AlertsFixConsumer, AlertsCheckListener, AlertsClock],
  exports: [AlertsClock, FiringWriter],
})
export class AlertsEvaluationModule {}
