export * from './entities/place.entity';
export * from './dto/place.dto';
export * from './place-view';
export * from './place-policy';
export * from './places.service';
export * from './places.module';
export * from './geocoder.service';
export * from './members-place-at.read';
export { getPlacesSql, type PlacesFilter } from './locations-nearest-places.read';
