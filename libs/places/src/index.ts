export * from './entities/place.entity';
export * from './dto/place.dto';
export * from './place-view';
export * from './place-policy';
export * from './places.service';
export * from './places.module';
export * from './geocoder';
export * from './place-at.service';
