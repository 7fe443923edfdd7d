/**
 * The security headers of every answer, set first so that no route can leave them out: helmet,
 * configured for a JSON API, and `Cache-Control: no-store`. The API's answers are data for one caller
 * (applications, keys, tokens, secrets), never for a shared cache; the few pages and files that may be
 * kept (the console's, `/docs` and its assets) set their own `Cache-Control` and Content-Security-Policy,
 * which replace these (docs/adr/0154).
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function securityHeaders(): RequestHandler {
  const headers = helmet({
    // A JSON answer loads nothing and is framed by nothing; a page sets a policy of its own.
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Subdomains are the operator's to decide, not this service's.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  });
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    headers(req, res, next);
  };
}
