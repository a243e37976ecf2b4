import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { LocateService } from './locate/locate.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  imports: [PlacesModule],
  providers: [FixConsumerRegistry, LocateService],
  exports: [FixConsumerRegistry, LocateService],
})
export class LocationsModule {}
