/**
 * `GET /openapi.json` and `GET /docs` at a listener's root. The page is Swagger UI (swagger-ui-dist),
 * every asset served by this process from node_modules: no CDN, and a Content-Security-Policy that
 * allows this origin only (no inline script or style), so the page can load nothing from elsewhere.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Router, type RequestHandler } from 'express';
import { sendError } from '../errors';

const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS_DIR = join(__dirname, '..', '..', 'assets');

/** The files `/docs` uses, by the name it asks for; nothing else of the package is reachable. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': join(SWAGGER_UI, 'swagger-ui.css'),
  'swagger-ui-bundle.js': join(SWAGGER_UI, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': join(SWAGGER_UI, 'favicon-32x32.png'),
  'docs.js': join(ASSETS_DIR, 'docs.js'),
};

const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // swagger-ui.css draws its icons as data: SVGs.
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page: Swagger UI's files and docs.js, which starts it on `/openapi.json`. */
const PAGE = readFileSync(join(ASSETS_DIR, 'docs.html'), 'utf8');

const serveAsset: RequestHandler = (req, res, next) => {
  const file = Object.hasOwn(ASSETS, req.path.slice(1)) ? ASSETS[req.path.slice(1)] : undefined;
  if (file === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Unlike the API's answers, these files may be kept for an hour: sendFile writes that unless told otherwise.
  res.removeHeader('Cache-Control');
  // The path is ours, from the table above; pnpm's store lies under `node_modules/.pnpm`, a dot folder.
  res.sendFile(file, { maxAge: '1h', dotfiles: 'allow' });
};

/**
 * The document as it stands (a deprecated contract's says so) and its reference page, at the listener's
 * root. Asked for under the contract's base path (`{basePath}/openapi.json`, a common guess), they answer
 * 404 naming their real address, before any key is asked for.
 */
export function docsRoutes(document: () => Promise<object>, basePath: string): Router {
  const router = Router();
  router.use(basePath, (req, res, next) => {
    if (req.method !== 'GET' || (req.path !== '/openapi.json' && req.path !== '/docs')) return next();
    sendError(res, 'NOT_FOUND', `Not under ${basePath}: this listener serves it at ${req.path} (its root)`);
  });
  router.get('/openapi.json', async (_req, res) => {
    res.type('application/json').send(JSON.stringify(await document()));
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('html').send(PAGE);
  });
  router.use('/docs/assets', serveAsset);
  return router;
}
