export * from './authorize';
export * from './clients';
export * from './metadata';
export * from './tokens';
