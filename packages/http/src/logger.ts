import { format as formatText } from 'node:util';
import winston from 'winston';

export type Logger = winston.Logger;

/**
 * Lines on stdout: JSON, or `pretty` when `format` says so or, with no `format`, when stdout is a terminal.
 * Callers pass identifiers and numbers only: never a body, a key or a score.
 */
export function createLogger(options: { level: string; service: string; format?: 'json' | 'pretty' }): Logger {
  const pretty = (options.format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  return winston.createLogger({
    level: options.level === 'silent' ? 'error' : options.level,
    silent: options.level === 'silent',
    defaultMeta: { service: options.service },
    format: winston.format.combine(
      winston.format.timestamp(),
      pretty ? prettyFormat({ colors: Boolean(process.stdout.isTTY) }) : winston.format.json(),
    ),
    transports: [new winston.transports.Stream({ stream: process.stdout })],
  });
}

/** An error's message for a log line; what was thrown as it is when it is not an Error. */
export const errorText = (err: unknown): string => String((err as Error)?.message ?? err);

const LEVEL_COLOURS: Readonly<Record<string, string>> = { error: '31', warn: '33', info: '32', debug: '90' };
/** Fields in the line's own layout, or the same on every line of a process. */
const SHOWN = new Set(
  'level message timestamp service requestId contract method route status durationMs partnerId'.split(' '),
);

/**
 * `12:03:04.123 INFO  B POST /v1/applications 201 12.3 ms partner=… req=…` for an access line;
 * `12:03:04.123 WARN  redis unavailable error="…"` otherwise, other fields as key=value, a stack on its own lines.
 */
export function prettyFormat(options: { colors?: boolean } = {}): winston.Logform.Format {
  const paint = (code: string | undefined, text: string) =>
    options.colors && code ? `\u001b[${code}m${text}\u001b[0m` : text;
  return winston.format.printf((info) => {
    const time = typeof info.timestamp === 'string' ? info.timestamp.slice(11, 23) : '';
    const level = paint(LEVEL_COLOURS[info.level], info.level.toUpperCase().padEnd(5));
    const parts = [time, level];
    if (info.message === 'request' && info.route !== undefined) {
      parts.push(
        `${String(info.contract)} ${String(info.method)} ${String(info.route)} ${paint(statusColour(Number(info.status)), String(info.status))} ${Number(info.durationMs).toFixed(1)} ms`,
      );
      if (info.partnerId !== undefined) parts.push(`partner=${String(info.partnerId)}`);
      parts.push(paint('90', `req=${String(info.requestId)}`));
    } else {
      parts.push(String(info.message));
      if (info.requestId !== undefined) parts.push(paint('90', `req=${String(info.requestId)}`));
    }
    let stack = '';
    for (const [key, value] of Object.entries(info)) {
      if (SHOWN.has(key) || value === undefined) continue;
      if (key === 'stack' && typeof value === 'string') stack = `\n${value}`;
      else parts.push(`${key}=${fieldText(value)}`);
    }
    return parts.join(' ') + stack;
  });
}

const statusColour = (status: number) => (status >= 500 ? '31' : status >= 400 ? '33' : '32');

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return formatText('%j', value);
}
