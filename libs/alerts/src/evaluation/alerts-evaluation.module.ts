import { GeofenceModule, LocationsModule } from '@app/locations';
import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { AlertFiringsRepository } from '../alert-firings.repository';
import { AlertRulesRepository } from '../alert-rules.repository';
import { AlertMemberStatesRepository } from './alert-member-states.repository';
import { AlertsClock } from './alerts-clock.service';
import { AlertsFixConsumer } from './alerts-fix.consumer';
import { AlertsCheckListener } from './check.listener';
import { FiringWriter } from './firing-writer.service';
import { ClockCandidatesRead } from './locations-clock-candidates.read';
import { RuleTargetsRead } from './members-rule-targets.read';
import { RulesCache } from './rules-cache.service';
import { ZoneClassificationRead } from './zones-classification.read';

/**
 * Alert evaluation in the worker (docs/alerts-evaluation.md): the `alerts` fix participant (zones,
 * battery, still periods), the place-check listener (`checks_*`), the clock (time-driven rules) and
 * the firing writer. The participant and the listener register themselves with the locations lib's
 * registries; the worker's Alerts processor calls {@link AlertsClock}.
 */
@Module({
  imports: [LocationsModule, GeofenceModule, PlacesModule],
  providers: [
    AlertRulesRepository,
    AlertFiringsRepository,
    AlertMemberStatesRepository,
    RuleTargetsRead,
    ZoneClassificationRead,
    ClockCandidatesRead,
    RulesCache,
    FiringWriter,
    AlertsFixConsumer,
    AlertsCheckListener,
    AlertsClock,
  ],
  exports: [AlertsClock, FiringWriter],
})
export class AlertsEvaluationModule {}
