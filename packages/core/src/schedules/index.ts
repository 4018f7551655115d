export * from './ramp';
