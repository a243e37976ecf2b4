export * from './locate-policy';
export * from './location-record';
export * from './locate.service';
export * from './company-snapshot';
export * from './locate-selection';
export * from './locate-snapshots.service';
