import { AlertsModule } from '@app/alerts';
import { ConfigModule, CoreModule, QueueModule, WorkerResultsModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { DispatchAssignModule, DispatchModule } from '@app/dispatch';
import { JobsModule } from '@app/jobs';
import { LiveModule } from '@app/live';
import { LocationsModule } from '@app/locations';
import { MembersModule } from '@app/members';
import { PlacesModule } from '@app/places';
import { WebhooksModule } from '@app/webhooks';
import { ZonesModule } from '@app/zones';
import { ReportsModule } from '@app/reports';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ActionAuthGuard } from './envelope/action-auth.guard';
import { ConsoleModule } from './console/console.module';
import { DocsModule } from './docs/docs.module';
import { ConnectorAuthGuard } from './envelope/connector-auth.guard';
import { ApiExceptionFilter } from './envelope/exception.filter';
import { UnknownActionController } from './envelope/unknown-action.controller';
import { EnvelopeValidationPipe } from './envelope/validation.pipe';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitService } from './ops/rate-limit.service';
import { JobsActionsController } from './jobs/jobs.actions.controller';
import { JobsConnectorController } from './jobs/jobs.connector.controller';
import { LocateController } from './locations/locate.controller';
import { LocationsMetrics } from './locations/locations.metrics';
import { WebhooksActionsController } from './webhooks/webhooks.actions.controller';
import { WebhooksConnectorController } from './webhooks/webhooks.connector.controller';
import { HooksConnectorController } from './webhooks/hooks.connector.controller';
import { MembersActionsController } from './members/members.actions.controller';
import { MembersConnectorController } from './members/members.connector.controller';
import { PushLocationsController } from './locations/pushlocations.controller';
import { NotificationsActionsController } from './notifications/notifications.actions.controller';
import { PlacesActionsController } from './places/places.controller';
import { PlacesConnectorController } from './places/places.connector.controller';
import { LocationsConnectorController } from './locations/locations.connector.controller';
import { ReportsConnectorController } from './reports/reports.connector.controller';
import { ShareController } from './locations/share.controller';
import { TracksController } from './locations/tracks.controller';
import { DispatchActionsController } from './dispatch/dispatch.controller';
import { AutoassignController } from './dispatch/autoassign.controller';
import { ClusterMapShareController, DistributeController } from './dispatch/distribute.controller';
import { AlertsActionsController } from './alerts/alerts.controller';
import { AlertFiringsConnectorController } from './alerts/alert-firings.connector.controller';
import { CheckinsConnectorController } from './locations/checkins.connector.controller';
import { ZonesActionsController } from './zones/zones.controller';
import { ReportsController } from './reports/reports.controller';
import { LiveActionsController } from './live/live.actions.controller';
import { LiveMetrics } from './live/live.metrics';
import { StreamAuthGuard } from './live/stream-auth.guard';
import { StreamController } from './live/stream.controller';

/** Action and connector controllers over the domain modules. */
@Module({
  imports: [
    MetricsModule,
    MembersModule,
    JobsModule,
    WebhooksModule,
    PlacesModule,
    LocationsModule,
    DispatchModule,
    DispatchAssignModule,
    ZonesModule,
    ReportsModule,
    AlertsModule,
    LiveModule,
  ],
  controllers: [
    MembersActionsController,
    NotificationsActionsController,
    JobsActionsController,
    WebhooksActionsController,
    PlacesActionsController,
    LocateController,
    PushLocationsController,
    MembersConnectorController,
    JobsConnectorController,
    WebhooksConnectorController,
    PlacesConnectorController,
    LocationsConnectorController,
    ReportsConnectorController,
    HooksConnectorController,
    TracksController,
    ShareController,
    DispatchActionsController,
    DistributeController,
    AutoassignController,
    ClusterMapShareController,
    AlertsActionsController,
    ZonesActionsController,
    ReportsController,
    LiveActionsController,
    StreamController,
    CheckinsConnectorController,
    AlertFiringsConnectorController,
  ],
  providers: [ActionAuthGuard, ConnectorAuthGuard, StreamAuthGuard, RateLimitService, LocationsMetrics, LiveMetrics],
  exports: [MembersModule, ActionAuthGuard, ConnectorAuthGuard, RateLimitService],
})
export class ActionsModule {}

/** Registered after every other module so its catch-all route comes last. */
@Module({
  imports: [ActionsModule],
  controllers: [UnknownActionController],
})
export class FallbackModule {}

/** The api app: produces queue tasks, never processes them. */
@Module({
  imports: [
    ConfigModule,
    DatabaseModule,
    QueueModule.register({ role: 'producer' }),
    CoreModule,
    WorkerResultsModule,
    HealthModule,
    MetricsModule,
    ActionsModule,
    DocsModule,
    ConsoleModule,
    FallbackModule,
  ],
  providers: [
    { provide: APP_PIPE, useClass: EnvelopeValidationPipe },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
})
export class ApiModule {}
