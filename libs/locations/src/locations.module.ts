import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { LocationRetentionService } from './ingest/retention.service';
import { LocateService } from './locate/locate.service';

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  imports: [PlacesModule],
  providers: [FixConsumerRegistry, IngestService, LocationRetentionService, LocateService],
  exports: [FixConsumerRegistry, IngestService, LocationRetentionService, LocateService],
})
export class LocationsModule {}
