import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { ZoneTeamReferences } from './zone-team-references.service';
import { ZonesRepository } from './zones.repository';
import { ZonesService } from './zones.service';

/** Zones: the actions, and the lookups other domains use (`ZonesService.zonesAt`, `zoneRefs`). */
@Module({
  imports: [MembersModule],
  providers: [ZonesRepository, ZonesService, ZoneTeamReferences],
  exports: [ZonesService],
})
export class ZonesModule {}
