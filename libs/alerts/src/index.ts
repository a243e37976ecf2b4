export * from './alert-actions';
export * from './entities/alert-rule.entity';
export * from './entities/alert-firing.entity';
export * from './alert-view';
