/**
 * The operator console at `GET /admin/console`: static files read once at start, holding no data. The
 * script sends the admin token in a header, never a cookie, so other sites cannot use it; the
 * Content-Security-Policy allows only our own files and calls to this origin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router } from 'express';

const CONSOLE_PATH = '/admin/console';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FILES = [
  { path: '', file: 'console.html', type: 'text/html; charset=utf-8' },
  { path: '/console.js', file: 'console.js', type: 'text/javascript; charset=utf-8' },
  { path: '/console.css', file: 'console.css', type: 'text/css; charset=utf-8' },
  { path: '/icon.svg', file: 'icon.svg', type: 'image/svg+xml' },
];

/** The shell's security headers (helmet) apply too; these set the page's own policy and let files be kept. */
export function consoleRoutes(): Router {
  const router = Router();
  for (const { path, file, type } of FILES) {
    const body = readFileSync(join(__dirname, '..', '..', 'console', file));
    router.get(`${CONSOLE_PATH}${path}`, (_req, res) => {
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      res.setHeader('Cache-Control', 'no-cache');
      res.send(body);
    });
  }
  return router;
}
