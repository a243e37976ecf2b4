import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { TrackBuilder } from './tracks/track-builder.service';
import { TracksQueryService } from './tracks/tracks-query.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry, TrackBuilder, TracksQueryService],
  exports: [FixConsumerRegistry, TrackBuilder, TracksQueryService],
})
export class LocationsModule {}
