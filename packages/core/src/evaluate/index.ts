/** The flag evaluation engine (docs/sdk-protocol.md §9): pure, no I/O, no clock of its own. */
export * from './bucket';
export * from './client-rules';
export * from './engine';
export * from './evaluator';
export * from './operators';
