import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { DeviceDirectory } from './osmand/device-directory';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  providers: [FixConsumerRegistry, IngestService, DeviceDirectory],
  exports: [FixConsumerRegistry, IngestService, DeviceDirectory],
})
export class LocationsModule {}
