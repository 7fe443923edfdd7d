import type { IRoute, NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { notFound } from './errors';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** A middleware or handler of a route; as in Express 5, a promise it returns that rejects goes to the error middleware. */
export type DirectHandler = (req: Request<Record<string, string>>, res: Response, next: NextFunction) => unknown;

interface Entry {
  pattern: RegExp;
  names: string[];
  baseUrl: string;
  route: IRoute;
  chain: DirectHandler[];
  /** Where the route's own handlers start in `chain`, after the gate. */
  routeAt: number;
}

/** Passed on when a route's last handler called `next()`: the table's middleware answers 404 (see `run`). */
const NO_LATER_ROUTE = Symbol('no later route');

/**
 * The characters of a path the table takes, in its own segments and in parameters: none a URL needs to
 * encode, and no `%` (nothing to decode).
 */
const PLAIN = 'A-Za-z0-9._~-';
const PARAMETER = `([${PLAIN}]+)`;
const PLAIN_SEGMENT = new RegExp(`^[${PLAIN}]*$`);

/**
 * The busiest routes answered straight from a table, before Express's router: a request walks the
 * router's layers one by one (the app's, then the mounted router's, its middleware and each route in
 * turn), which cost a match or a GET about 20 µs (docs/decisions.md, "Issue 7, seventh session").
 *
 * The routes stay registered with Express as before, and the table runs the same handlers in the same
 * order. It takes a request only in the one form that Express's router would certainly send to that
 * route, and leaves every other form to Express, so each request is routed the same way. The paths must
 * match exactly, with the same case and no trailing slash. Parameters must be unencoded, using the
 * characters [A-Za-z0-9._~-]. The method must be the route's own; HEAD goes to Express.
 * It sets `req.params`, `req.baseUrl`, `req.url` and `req.route` as the router would, at the same
 * points. A middleware in a chain must call `next()` or `next(err)`. It must never call `next('route')`
 * or `next('router')`, which the table does not handle (none of ours does).
 */
export class DirectRoutes {
  private readonly byMethod = new Map<string, Entry[]>();

  /**
   * Registers `path` under `router` (mounted at `baseUrl` from the app's root) with `handlers`. When
   * `gate` is given, its middleware runs first. For Express, `gate` is the router's own `use`: it runs
   * before every route of that router, and the caller has registered it there. A request the table
   * takes runs the gate, then `handlers`.
   */
  add(router: Router, options: { baseUrl: string; method: Method; path: string; gate?: RequestHandler[] }, ...handlers: DirectHandler[]): void {
    const route = router.route(options.path);
    (route[options.method] as (...h: DirectHandler[]) => IRoute)(...handlers);
    const names: string[] = [];
    const source = `${options.baseUrl}${options.path}`
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) {
          if (!PLAIN_SEGMENT.test(segment)) throw new Error(`DirectRoutes: segment ${segment} is not a plain one`);
          return segment.replace(/\./g, '\\.');
        }
        names.push(segment.slice(1));
        return PARAMETER;
      })
      .join('/');
    const method = options.method.toUpperCase();
    const entries = this.byMethod.get(method) ?? [];
    const gate = options.gate ?? [];
    entries.push({ pattern: new RegExp(`^${source}$`), names, baseUrl: options.baseUrl, route, chain: [...gate, ...handlers], routeAt: gate.length });
    this.byMethod.set(method, entries);
  }

  /** The middleware that answers the table's requests and passes every other request on. */
  handler(): RequestHandler {
    return (req, res, next) => {
      const entries = this.byMethod.get(req.method);
      if (entries === undefined) return next();
      const url = req.url;
      const query = url.indexOf('?');
      const path = query < 0 ? url : url.slice(0, query);
      for (const entry of entries) {
        const found = entry.pattern.exec(path);
        if (found === null) continue;
        // As the mounted router does: its base, and the URL below it, while it runs; the caller's again once it is left.
        const outer = req.baseUrl;
        req.baseUrl = entry.baseUrl;
        req.url = url.slice(entry.baseUrl.length);
        return run(entry, found, req as Request<Record<string, string>>, res, (err) => {
          req.baseUrl = outer;
          req.url = url;
          if (err === NO_LATER_ROUTE) notFound(req, res, next);
          else next(err);
        });
      }
      next();
    };
  }
}

/**
 * Runs `chain` as Express runs a route's stack: each handler's `next()` calls the following one, and an
 * error (thrown, passed or rejected) goes to `done`, the error middleware. Were the last handler to call
 * `next()` (none of ours does), Express would find no later route for these paths and answer 404; so does this.
 */
function run(entry: Entry, found: RegExpExecArray, req: Request<Record<string, string>>, res: Response, done: (err?: unknown) => void): void {
  const { chain, routeAt } = entry;
  // The gate runs as the router's own middleware does: no parameters, no route yet (so a refusal there is
  // logged and counted as "unmatched", as before); the route's parameters and the route come with its handlers.
  req.params = {};
  let at = 0;
  const step = (err?: unknown): void => {
    if (err) return done(err); // as Express's route: a falsy value is no error
    if (at === routeAt) {
      const params: Record<string, string> = {};
      for (let i = 0; i < entry.names.length; i++) params[entry.names[i]] = found[i + 1];
      req.params = params;
      req.route = entry.route;
    }
    const handler = chain[at++];
    if (handler === undefined) {
      done(NO_LATER_ROUTE);
      return;
    }
    try {
      const returned = handler(req, res, step) as PromiseLike<unknown> | undefined;
      if (typeof returned?.then === 'function') returned.then(undefined, (error: unknown) => done(error || new Error('Rejected promise')));
    } catch (error) {
      done(error);
    }
  };
  step();
}
