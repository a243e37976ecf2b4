import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers';
import { IngestService } from './ingest/ingest.service';
import { LocationRetentionService } from './ingest/retention.service';
import { LocateSnapshots } from './locate/locate-snapshots.service';
import { LocateService } from './locate/locate.service';
import { TrackBuilder } from './tracks/track-builder.service';
import { TracksQueryService } from './tracks/tracks-query.service';

const SERVICES = [FixConsumerRegistry, IngestService, LocationRetentionService, LocateService, LocateSnapshots, TrackBuilder, TracksQueryService];

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  imports: [PlacesModule],
  providers: SERVICES,
  exports: SERVICES,
})
export class LocationsModule {}
