import { Module } from '@nestjs/common';
import { Geocoder } from './geocoder';
import { PlacesService } from './places.service';

/** Places: the entity and the lookups other domains use. */
@Module({
  providers: [PlacesService, Geocoder],
  exports: [PlacesService, Geocoder],
})
export class PlacesModule {}
