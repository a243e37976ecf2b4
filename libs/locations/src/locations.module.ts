import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { DeviceDirectory } from './osmand/device-directory';
import { LocationRetentionService } from './ingest/retention.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry, IngestService, DeviceDirectory, LocationRetentionService],
  exports: [FixConsumerRegistry, IngestService, DeviceDirectory, LocationRetentionService],
})
export class LocationsModule {}
