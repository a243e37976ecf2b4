import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { LocationRetentionService } from './ingest/retention.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry, IngestService, LocationRetentionService],
  exports: [FixConsumerRegistry, IngestService, LocationRetentionService],
})
export class LocationsModule {}
