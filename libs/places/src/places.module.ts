import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { Geocoder } from './geocoder';
import { PlaceTeamReferences } from './place-team-references';
import { PlacesService } from './places.service';

/** Places: the actions, and the lookups other domains use. */
@Module({
  imports: [MembersModule],
  providers: [PlacesService, Geocoder, PlaceTeamReferences],
  exports: [PlacesService, Geocoder],
})
export class PlacesModule {}
