import { format as formatText } from 'node:util';
import winston from 'winston';
import TransportStream from 'winston-transport';

export type Logger = winston.Logger;

/** `json`: one JSON object a line, for collectors. `pretty`: one readable line, for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * Log lines on stdout (through `stdoutLines`): JSON, or the pretty form when `format` says so or, with no
 * `format`, when stdout is a terminal. Callers pass identifiers and numbers only: never a body, a key or a score.
 */
export function createLogger(options: { level: string; service: string; format?: LogFormat }): Logger {
  const pretty = (options.format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const transport = new StdoutTransport();
  const logger = winston.createLogger({
    level: options.level === 'silent' ? 'error' : options.level,
    silent: options.level === 'silent',
    defaultMeta: { service: options.service },
    format: winston.format.combine(winston.format.timestamp(), pretty ? prettyFormat({ colors: Boolean(process.stdout.isTTY) }) : winston.format.json()),
    transports: [transport],
  });
  if (!pretty) (logger as JsonConsoleLogger)[JSON_CONSOLE] = { transport, service: options.service };
  return logger;
}

/**
 * Text bound for stdout, written together once per turn of the event loop: when 32 requests finish in one
 * turn, one write instead of 32. A write to a pipe is synchronous in Node on Linux, and one a line took about
 * 7% of a GET's time (docs/decisions.md, "Issue 7, sixth session: log lines written once a turn"). Every
 * line of the process goes through it (`createLogger`'s loggers, the start banner), so their order is kept.
 * A line waits at most until the end of the turn; what is pending when the process exits is written then
 * (`exit` listeners run on `process.exit`, after an uncaught exception, and when the loop runs out of work).
 */
class StdoutLines {
  private pending = '';
  private scheduled = false;
  private exitHooked = false;

  write(text: string): void {
    this.pending += text;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
    if (!this.exitHooked) {
      this.exitHooked = true;
      process.on('exit', this.flush);
    }
  }

  /** Writes what is pending now. */
  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    process.stdout.write(text);
  };
}

export const stdoutLines = new StdoutLines();

const MESSAGE = Symbol.for('message');

/** winston's console transport, less its per-line write: the formatted line goes to `stdoutLines`. */
class StdoutTransport extends TransportStream {
  override log(info: { [MESSAGE]?: unknown }, callback: () => void): void {
    stdoutLines.write(`${String(info[MESSAGE])}\n`);
    callback();
  }
}

/** A logger of `createLogger`'s writing JSON lines: its stdout transport and its service, for `accessLineWriter`. */
const JSON_CONSOLE = Symbol('loanmatch.jsonConsole');
type JsonConsoleLogger = Logger & { [JSON_CONSOLE]?: { transport: winston.transport; service: string } };

/** What the access log says of a request (`accessLog`). */
export interface AccessLine {
  requestId: string;
  contract: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  partnerId?: string;
}

/**
 * Writes access lines through `logger`. For a logger of `createLogger`'s writing JSON lines to its own
 * console transport, the line is the one winston's `json` format makes (keys sorted, as its
 * safe-stable-stringify sorts them; tested), handed to `stdoutLines` directly instead of through winston's
 * stream pipeline: a few microseconds a request instead of about fifteen (docs/decisions.md, "Issue 7,
 * fifth session"). Any other logger, or one whose transports were changed, gets `logger.info('request', …)`.
 */
export function accessLineWriter(logger: Logger): (line: AccessLine) => void {
  const own = (logger as JsonConsoleLogger)[JSON_CONSOLE];
  return (line) => {
    if (own && !logger.silent && logger.transports.length === 1 && logger.transports[0] === own.transport && logger.isInfoEnabled()) {
      stdoutLines.write(`${jsonAccessLine(own.service, line, new Date())}\n`);
    } else {
      logger.info('request', line);
    }
  };
}

/** The access line as winston's `json` format, after `timestamp`, writes it for a logger whose default meta is `{service}`. */
export function jsonAccessLine(service: string, line: AccessLine, at: Date): string {
  const q = JSON.stringify;
  const partner = line.partnerId === undefined ? '' : `"partnerId":${q(line.partnerId)},`;
  return (
    `{"contract":${q(line.contract)},"durationMs":${q(line.durationMs)},"level":"info","message":"request","method":${q(line.method)},${partner}` +
    `"requestId":${q(line.requestId)},"route":${q(line.route)},"service":${q(service)},"status":${q(line.status)},"timestamp":"${at.toISOString()}"}`
  );
}

const LEVEL_COLOURS: Readonly<Record<string, string>> = { error: '31', warn: '33', info: '32', debug: '90' };
/** Fields shown in the line's own layout, or left out as the same on every line of a process. */
const SHOWN = new Set(['level', 'message', 'timestamp', 'service', 'requestId', 'contract', 'method', 'route', 'status', 'durationMs', 'partnerId']);

/**
 * `12:03:04.123 INFO  B POST /v1/applications 201 12.3 ms partner=… req=…` for an access line;
 * `12:03:04.123 WARN  redis unavailable error="…"` for anything else: the time, the level, the message,
 * then the other fields as key=value (strings quoted when they hold spaces). An error's stack, when
 * logged, follows on its own lines.
 */
export function prettyFormat(options: { colors?: boolean } = {}): winston.Logform.Format {
  const paint = (code: string | undefined, text: string) => (options.colors && code ? `\u001b[${code}m${text}\u001b[0m` : text);
  return winston.format.printf((info) => {
    const time = typeof info.timestamp === 'string' ? info.timestamp.slice(11, 23) : '';
    const level = paint(LEVEL_COLOURS[info.level], info.level.toUpperCase().padEnd(5));
    const parts = [time, level];
    if (info.message === 'request' && info.route !== undefined) {
      parts.push(`${String(info.contract)} ${String(info.method)} ${String(info.route)} ${paint(statusColour(Number(info.status)), String(info.status))} ${Number(info.durationMs).toFixed(1)} ms`);
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

function statusColour(status: number): string {
  if (status >= 500) return '31';
  if (status >= 400) return '33';
  return '32';
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return formatText('%j', value);
}
