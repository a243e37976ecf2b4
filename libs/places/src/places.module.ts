import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { Geocoder } from './geocoder';
import { PlaceAtService } from './place-at.service';
import { PlaceTeamReferences } from './place-team-references';
import { PlacesService } from './places.service';

/** Places: the actions, and the lookups other domains use. */
@Module({
  imports: [MembersModule],
  providers: [PlacesService, Geocoder, PlaceTeamReferences, PlaceAtService],
  exports: [PlacesService, Geocoder, PlaceAtService],
})
export class PlacesModule {}
