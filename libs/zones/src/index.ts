export * from './entities/zone.entity';
export * from './dto/zone.dto';
export * from './zone-polygon';
export * from './zone-view';
export * from './zone-policy';
export * from './zones.service';
export * from './zones.module';
