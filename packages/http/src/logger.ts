import winston from 'winston';

export type Logger = winston.Logger;

/** JSON lines on stdout. Callers pass identifiers and numbers only: never a body, a key or a score. */
export function createLogger(options: { level: string; service: string }): Logger {
  return winston.createLogger({
    level: options.level === 'silent' ? 'error' : options.level,
    silent: options.level === 'silent',
    defaultMeta: { service: options.service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
