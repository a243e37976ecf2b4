import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { LocationRetentionService } from './ingest/retention.service';
import { TrackBuilder } from './tracks/track-builder.service';
import { TracksQueryService } from './tracks/tracks-query.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry, IngestService, LocationRetentionService, TrackBuilder, TracksQueryService],
  exports: [FixConsumerRegistry, IngestService, LocationRetentionService, TrackBuilder, TracksQueryService],
})
export class LocationsModule {}
