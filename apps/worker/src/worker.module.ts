import { AlertsEvaluationModule } from '@app/alerts';
import { ConfigModule, CoreModule, CpuRunner, QueueModule, RunExecutor, WorkerResultsModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { DispatchAssignWorkerModule, DispatchWorkerModule } from '@app/dispatch';
import { GeofenceModule, LocationsModule } from '@app/locations';
import { MembersModule } from '@app/members';
import { ReportsWorkerModule } from '@app/reports';
import { WebhooksModule } from '@app/webhooks';
import { Module } from '@nestjs/common';
import { CpuPool } from './cpu/cpu.pool';
import { HeartbeatService } from './heartbeat.service';
import { ReportPool } from './reports/report.pool';
import { AlertsProcessor } from './processors/alerts.processor';
import { LocationsProcessor } from './processors/locations.processor';
import { TracksProcessor } from './processors/tracks.processor';
import { MaintenanceProcessor } from './processors/maintenance.processor';
import { DispatchRunsProcessor, ReportRunsProcessor } from './processors/runs.processor';
import { WebhookDeliveryProcessor } from './processors/webhook-delivery.processor';

/** The worker: BullMQ processors and the heartbeat; no HTTP. */
@Module({
  imports: [
    ConfigModule,
    DatabaseModule,
    QueueModule.register(),
    CoreModule,
    WorkerResultsModule,
    MembersModule,
    WebhooksModule,
    LocationsModule,
    GeofenceModule,
    AlertsEvaluationModule,
    DispatchWorkerModule,
    DispatchAssignWorkerModule,
    ReportsWorkerModule.withRenderer(ReportPool),
  ],
  providers: [
    HeartbeatService,
    MaintenanceProcessor,
    WebhookDeliveryProcessor,
    CpuPool,
    { provide: CpuRunner, useExisting: CpuPool },
    RunExecutor,
    DispatchRunsProcessor,
    ReportRunsProcessor,
    LocationsProcessor,
    TracksProcessor,
    AlertsProcessor,
  ],
})
export class WorkerModule {}
