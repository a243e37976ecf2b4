import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { Geocoder } from './geocoder.service';
import { NearestPlacesReader } from './locations-nearest-places.read';
import { PlaceAtService } from './members-place-at.read';
import { PlaceViewsReader } from './members-place-views.read';
import { PlaceTeamReferences } from './place-team-references.service';
import { PlacesRepository } from './places.repository';
import { PlacesService } from './places.service';

/** Places: the actions, and the lookups other domains use. */
@Module({
  imports: [MembersModule],
  providers: [PlacesRepository, PlaceViewsReader, NearestPlacesReader, PlacesService, Geocoder, PlaceTeamReferences, PlaceAtService],
  exports: [PlacesService, Geocoder, PlaceAtService],
})
export class PlacesModule {}
