export * from './entities/place.entity';
export * from './places.service';
export * from './places.module';
export * from './geocoder';
export * from './place-at.service';
