import { Module } from '@nestjs/common';
import { Geocoder } from './geocoder';
import { PlaceAtService } from './place-at.service';
import { PlacesService } from './places.service';

/** Places: the entity and the lookups other domains use. */
@Module({
  providers: [PlacesService, Geocoder, PlaceAtService],
  exports: [PlacesService, Geocoder, PlaceAtService],
})
export class PlacesModule {}
