export * from './entities/zone.entity';
