import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import winston from 'winston';
import { frontDoor } from '../src/service-app';
import { createLogger, prettyFormat } from '../src/logger';

/** A winston logger writing formatted lines into an array. */
function capture(format: winston.Logform.Format) {
  const lines: string[] = [];
  const logger = winston.createLogger({
    level: 'debug',
    defaultMeta: { service: 'loanmatch-test' },
    format,
    transports: [
      new winston.transports.Stream({
        stream: new Writable({
          write: (chunk, _enc, done) => {
            lines.push(String(chunk).replace(/\n$/, ''));
            done();
          },
        }),
      }),
    ],
  });
  return { logger, lines };
}

const fixedTime = winston.format((info) => ({ ...info, timestamp: '2026-11-22T03:20:01.234Z' }));

describe('pretty log lines', () => {
  it('when an access line is written, then one readable line: time, level, contract, method, route, status, duration, partner, request id', () => {
    const { logger, lines } = capture(winston.format.combine(fixedTime(), prettyFormat()));
    logger.info('request', {
      requestId: 'req-1',
      contract: 'B',
      method: 'POST',
      route: '/v1/applications',
      status: 201,
      durationMs: 12.345,
      partnerId: 'p-1',
    });
    expect(lines).toEqual(['03:20:01.234 INFO  B POST /v1/applications 201 12.3 ms partner=p-1 req=req-1']);
  });

  it('when another message is written, then its fields follow as key=value, strings quoted when they hold spaces, and a stack on its own lines', () => {
    const { logger, lines } = capture(winston.format.combine(fixedTime(), prettyFormat()));
    logger.warn('redis unavailable', {
      error: 'connect ECONNREFUSED 127.0.0.1:6379',
      attempts: 3,
      keys: [{ keyId: 'k' }],
    });
    logger.error('unexpected error', { requestId: 'req-2', stack: 'Error: boom\n    at here' });
    expect(lines[0]).toBe(
      '03:20:01.234 WARN  redis unavailable error="connect ECONNREFUSED 127.0.0.1:6379" attempts=3 keys=[{"keyId":"k"}]',
    );
    expect(lines[1]).toBe('03:20:01.234 ERROR unexpected error req=req-2\nError: boom\n    at here');
  });

  it('when colours are on, then the level and the status are coloured', () => {
    const { logger, lines } = capture(winston.format.combine(fixedTime(), prettyFormat({ colors: true })));
    logger.info('request', { requestId: 'r', contract: 'A', method: 'GET', route: '/x', status: 503, durationMs: 1 });
    expect(lines[0]).toContain('\u001b[32mINFO \u001b[0m');
    expect(lines[0]).toContain('\u001b[31m503\u001b[0m');
  });
});

describe('createLogger', () => {
  /** What createLogger writes for one access line, made as if stdout were (or were not) a terminal. */
  const written = (format: 'json' | 'pretty' | undefined, isTTY: boolean) => {
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
    let logger: winston.Logger;
    try {
      logger = createLogger({ level: 'info', service: 'loanmatch-test', format });
    } finally {
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
    // The format is the logger's; the console transport is swapped for one the test can read.
    const out: string[] = [];
    logger.clear().add(
      new winston.transports.Stream({
        stream: new Writable({
          write: (chunk, _enc, done) => {
            out.push(String(chunk));
            done();
          },
        }),
      }),
    );
    logger.info('request', { requestId: 'r', contract: 'A', method: 'GET', route: '/x', status: 200, durationMs: 1 });
    return out.join('');
  };

  it('when LOG_FORMAT is unset, then pretty on a terminal and JSON otherwise; when it is set, then as it says', () => {
    expect(JSON.parse(written(undefined, false))).toMatchObject({
      message: 'request',
      service: 'loanmatch-test',
      route: '/x',
      status: 200,
    });
    expect(written(undefined, true)).toMatch(/^\d\d:\d\d:\d\d\.\d{3} .*INFO .* A GET \/x .*200.* 1\.0 ms .*req=r/);
    expect(JSON.parse(written('json', true))).toMatchObject({ route: '/x' });
    expect(written('pretty', false)).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}A GET \/x 200 1\.0 ms req=r\n$/);
  });
});

describe('access log', () => {
  it('when a request is answered, then one line with request id, contract, method, route template, status, duration and partner id, and the same moment is observed for metrics', async () => {
    const { logger, lines } = capture(winston.format.json());
    const observed: Array<[string, number, number]> = [];
    const app = express();
    app.use(frontDoor(logger, 'A', { observe: (route, status, seconds) => observed.push([route, status, seconds]) }));
    app.get('/things/:thingId', (_req, res) => {
      res.locals.partner = { partnerId: 'partner-7', keyId: 'key-9', tier: 'free' };
      res.status(202).json({ ok: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/things/thing-xyz?secret=qqq`, { headers: { 'X-Request-Id': 'req-abc' } });
      await fetch(`http://127.0.0.1:${port}/nothing`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries[0]).toEqual({
      level: 'info',
      message: 'request',
      service: 'loanmatch-test',
      requestId: 'req-abc',
      contract: 'A',
      method: 'GET',
      route: '/things/:thingId',
      status: 202,
      durationMs: expect.any(Number),
      partnerId: 'partner-7',
    });
    expect(entries[1]).toMatchObject({
      route: 'unmatched',
      status: 404,
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(entries[1].partnerId).toBeUndefined();
    expect(lines.join('\n')).not.toMatch(/thing-xyz|secret|qqq|key-9/);
    expect(observed).toEqual([
      ['/things/:thingId', 202, expect.any(Number)],
      ['unmatched', 404, expect.any(Number)],
    ]);
    expect(observed[0][2]).toBeCloseTo(entries[0].durationMs / 1000, 6);
  });
});

describe('log lines on stdout', () => {
  const line = (partnerId?: string) => ({
    requestId: 'req-"1"',
    contract: 'A',
    method: 'PATCH',
    route: '/api/partner/v1/applications/:applicationId',
    status: 422,
    durationMs: 12.345678,
    ...(partnerId === undefined ? {} : { partnerId }),
  });

  /** Captures what is written to stdout while `run` runs. */
  function stdoutOf(run: () => void): string {
    const original = process.stdout.write;
    let out = '';
    process.stdout.write = ((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      run();
    } finally {
      process.stdout.write = original;
    }
    return out;
  }

  it("when the logger is createLogger's with JSON lines, then an access line goes to stdout, once, as JSON; below its level, nothing", () => {
    const logger = createLogger({ level: 'info', service: 'loanmatch-test', format: 'json' });
    const out = stdoutOf(() => logger.info('request', line('p-1')));
    expect(out.endsWith('\n')).toBe(true);
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(out)).toEqual({
      level: 'info',
      message: 'request',
      service: 'loanmatch-test',
      ...line('p-1'),
      timestamp: expect.any(String),
    });
    for (const level of ['warn', 'silent']) {
      const quiet = createLogger({ level, service: 'loanmatch-test', format: 'json' });
      expect(stdoutOf(() => quiet.info('request', line('p-1')))).toBe('');
    }
  });

  it('when lines are logged one after another, then they are written in that order', () => {
    const logger = createLogger({ level: 'info', service: 'loanmatch-test', format: 'json' });
    const out = stdoutOf(() => {
      logger.warn('first');
      logger.info('request', line());
      logger.info('third');
    });
    expect(
      out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).message),
    ).toEqual(['first', 'request', 'third']);
  });

  it('when the process exits right after logging, then its lines are written before it ends', () => {
    const logger = resolve(__dirname, '../src/logger.ts');
    const script = `
      const { createLogger } = require(${JSON.stringify(logger)});
      const log = createLogger({ level: 'info', service: 'exit-test', format: 'json' });
      log.info('before exit');
      log.info('request', { requestId: 'r-exit', contract: 'B', method: 'POST', route: '/v1/x', status: 201, durationMs: 2 });
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.status).toBe(3);
    const lines = child.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.message, l.requestId])).toEqual([
      ['before exit', undefined],
      ['request', 'r-exit'],
    ]);
  });
});
