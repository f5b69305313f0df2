/** The contract: one source of truth for the client, the app and the sandbox. */
export * from './errors';
export * from './primitives';
export * from './requests';
export * from './resources';
