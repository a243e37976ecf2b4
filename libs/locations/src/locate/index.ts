export * from './locate-policy';
export * from './location-record';
export * from './locate.service';
