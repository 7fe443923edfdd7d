/**
 * The operator console at `GET /admin/console`: a page, a script, a style sheet and an icon of our own, read
 * once at start. The page holds no data and needs no token to load; the script asks for the admin
 * token, keeps it in the tab's sessionStorage and calls the admin API with `Authorization: Bearer`.
 * A token in a header, never in a cookie, is what makes the page safe from cross-site requests; the
 * Content-Security-Policy allows only our own script and style and calls to this origin.
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
