import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { LocateService } from './locate/locate.service';
import { DeviceDirectory } from './osmand/device-directory';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  imports: [PlacesModule],
  providers: [FixConsumerRegistry, IngestService, DeviceDirectory, LocateService],
  exports: [FixConsumerRegistry, IngestService, DeviceDirectory, LocateService],
})
export class LocationsModule {}
