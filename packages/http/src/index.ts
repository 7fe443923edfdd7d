export * from './errors';
export * from './middleware';
export * from './logger';
export * from './rate-limit';
export * from './health';
export * from './auth';
export * from './jwt';
export * from './server';
