export * from './approvals';
export * from './states';
export * from './merge';
