export * from './events';
export * from './state';
export * from './reducer';
export * from './codec';
