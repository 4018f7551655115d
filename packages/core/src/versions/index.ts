export * from './json-patch';
export * from './same-json';
export * from './describe-conditions';
export * from './control-changes';
export * from './feature-settings-changes';
export * from './resource-changes';
