import { JobsModule } from '@app/jobs';
import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations.module';
import { GeofenceEvaluator } from './geofence-evaluator.service';
import { GeofenceRepository } from './geofence.repository';
import { PlaceCheckListenerRegistry } from './place-check-listeners.registry';
import { FixParticipantRegistry } from './fix-participants.registry';

/**
 * Geofencing: the `geofence` fix consumer (registers itself with `FixConsumerRegistry`) and the
 * registries of place-check listeners and of fix participants (alert rules register in both). Imported by the worker beside
 * `LocationsModule`; the api does not need it.
 */
@Module({
  imports: [LocationsModule, JobsModule, PlacesModule],
  providers: [GeofenceRepository, GeofenceEvaluator, PlaceCheckListenerRegistry, FixParticipantRegistry],
  exports: [GeofenceEvaluator, PlaceCheckListenerRegistry, FixParticipantRegistry],
})
export class GeofenceModule {}
