export * from './common.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './messages.ts';
export * from './plan-gating.ts';
