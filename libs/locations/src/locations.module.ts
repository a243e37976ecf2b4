import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry, IngestService],
  exports: [FixConsumerRegistry, IngestService],
})
export class LocationsModule {}
