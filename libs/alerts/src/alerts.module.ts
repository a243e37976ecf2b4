import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { AlertFiringsService } from './alert-firings.service';
import { AlertReferences } from './alert-references';
import { AlertRulesService } from './alert-rules.service';
import { AlertTeamReferences } from './alert-team-references';

/** Alert rules: the rule actions and getalertfirings (the evaluation lives in `evaluation/`, run by the worker). */
@Module({
  imports: [MembersModule],
  providers: [AlertRulesService, AlertFiringsService, AlertReferences, AlertTeamReferences],
  exports: [AlertRulesService, AlertFiringsService],
})
export class AlertsModule {}
