import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry],
  exports: [FixConsumerRegistry],
})
export class LocationsModule {}
