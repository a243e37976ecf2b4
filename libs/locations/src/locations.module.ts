import { MembersModule } from '@app/members';
import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { FixConsumerRegistry } from './fix-consumers.registry';
import { ClockEventsService } from './ingest/clock-events.service';
import { FixPartitions } from './ingest/fix-partitions.service';
import { FixTasksProducer } from './ingest/fix-tasks.producer';
import { IngestRepository } from './ingest/ingest.repository';
import { OsmandGroupCommit } from './ingest/osmand-group-commit.service';
import { PushLocationsService } from './ingest/push-locations.service';
import { RetentionRepository } from './ingest/retention.repository';
import { LocationRetentionService } from './ingest/retention.service';
import { ConnectorPositionsService } from './locate/connector-positions.service';
import { LocateRepository } from './locate/locate.repository';
import { LocateSnapshots } from './locate/locate-snapshots.service';
import { LocateService } from './locate/locate.service';
import { MembersLocateRead } from './locate/members-locate.read';
import { MemberLocationsReader } from './member-locations.read';
import { FixPasses } from './fix-passes.service';
import { MemberTracksService } from './tracks/member-tracks.service';
import { TrackBuilder } from './tracks/track-builder.service';
import { TracksQueryService } from './tracks/tracks-query.service';
import { TracksRepository } from './tracks/tracks.repository';

const EXPORTED = [
  FixConsumerRegistry,
  FixPasses,
  PushLocationsService,
  OsmandGroupCommit,
  LocationRetentionService,
  LocateService,
  LocateSnapshots,
  TrackBuilder,
  TracksQueryService,
  MemberTracksService,
  MemberLocationsReader,
  ConnectorPositionsService,
];

/** Locations: fixes, the latest location, tracks, check-ins and clock events. */
@Module({
  imports: [PlacesModule, MembersModule],
  providers: [
    ...EXPORTED,
    IngestRepository,
    FixPartitions,
    FixTasksProducer,
    ClockEventsService,
    RetentionRepository,
    LocateRepository,
    MembersLocateRead,
    TracksRepository,
  ],
  exports: EXPORTED,
})
export class LocationsModule {}
