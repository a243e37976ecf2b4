import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { AlertFiringsRepository } from './alert-firings.repository';
import { AlertFiringsService } from './alert-firings.service';
import { AlertReferences } from './alert-references.service';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertRulesService } from './alert-rules.service';
import { AlertTeamReferences } from './alert-team-references.service';
import { PlacesZonesRefsRead } from './places-zones-refs.read';
import { AlertFiringsPollingService } from './polling/alert-firings-polling.service';

/** Alert rules: the rule actions, getalertfirings and the `/v1/alert-firings` polling trigger (the evaluation lives in `evaluation/`, run by the worker). */
@Module({
  imports: [MembersModule],
  providers: [
    AlertRulesRepository,
    AlertFiringsRepository,
    PlacesZonesRefsRead,
    AlertRulesService,
    AlertFiringsService,
    AlertReferences,
    AlertTeamReferences,
    AlertFiringsPollingService,
  ],
  exports: [AlertRulesService, AlertFiringsService, AlertFiringsPollingService],
})
export class AlertsModule {}
