import { JobsModule } from '@app/jobs';
import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations.module';
import { GeofenceEvaluator } from './geofence-evaluator.service';
import { GeofenceRepository } from './geofence.repository';
import { PlaceCheckListenerRegistry } from './place-check-listeners';

/**
 * Geofencing: the `geofence` fix consumer (registers itself with `FixConsumerRegistry`) and the
 * registry of place-check listeners (alert rules register there). Imported by the worker beside
 * `LocationsModule`; the api does not need it.
 */
@Module({
  imports: [LocationsModule, JobsModule, PlacesModule],
  providers: [GeofenceRepository, GeofenceEvaluator, PlaceCheckListenerRegistry],
  exports: [GeofenceEvaluator, PlaceCheckListenerRegistry],
})
export class GeofenceModule {}
