export * from './api-error.ts';
export * from './http-client.ts';
export * from './reactions.ts';
export * from './token-store.ts';
