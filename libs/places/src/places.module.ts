import { Module } from '@nestjs/common';
import { PlacesService } from './places.service';

/** Places: the entity and the lookups other domains use. */
@Module({
  providers: [PlacesService],
  exports: [PlacesService],
})
export class PlacesModule {}
