/**
 * Retiring a contract at the edge: each partner request is counted and told its contract's schedule
 * (`Deprecation`, RFC 9745; `Link`; `Sunset`, RFC 8594) or refused with 410 CONTRACT_RETIRED, from this
 * process's copy of the schedules; the contract's document says it is deprecated. Mounted after the
 * partner's authentication, so the health checks, documents, tracking redirect and lender routes never see it.
 */
import type { RequestHandler } from 'express';
import { addContractUsage, type ContractUsageCount, type LifecycleRow, type Sql } from '@loanmatch/db';
import type { AuthenticatedPartner, Contract, ContractLifecycles } from '@loanmatch/domain';
import { sendError } from './errors';
import { errorText, type Logger } from './logger';
import type { Schema } from './openapi';
import { periodicWrite } from './periodic-write';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export function contractLifecycle(
  contract: Contract,
  lifecycles: ContractLifecycles,
  usage?: ContractUsage,
): RequestHandler {
  return (_req, res, next) => {
    const { partnerId } = res.locals.partner as AuthenticatedPartner;
    const at = Date.now();
    usage?.record(partnerId, contract, at);
    lifecycles.statusOf(contract, partnerId, at).then((status) => {
      for (const [name, value] of status.headers) res.setHeader(name, value);
      if (status.retired) return sendError(res, 'CONTRACT_RETIRED', status.retired);
      next();
    }, next);
  };
}

/**
 * The contract's document as served: once the every-partner schedule's `deprecatedAt` has passed, each
 * operation under the base path is `deprecated` and `info.description` says so.
 */
export function servedDocument(document: Schema, contract: Contract, lifecycles: ContractLifecycles) {
  return async (): Promise<Schema> => {
    // Schedules that cannot be read leave the document as built: it is served whatever the database does.
    const schedule = await lifecycles.scheduleOf(contract).catch(() => undefined);
    const deprecated = schedule?.deprecatedAt && schedule.deprecatedAt.getTime() <= Date.now();
    return schedule && deprecated ? deprecatedDocument(document, schedule) : document;
  };
}

/** An operation of a deprecated contract: `deprecated`, and its 410 once the contract is retired or in a brownout. */
function retiring(operation: Schema): Schema {
  const body = {
    allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: ['CONTRACT_RETIRED'] } } }],
  };
  const gone = { description: '`CONTRACT_RETIRED`', content: { 'application/json': { schema: body } } };
  return { ...operation, deprecated: true, responses: { ...(operation.responses as Schema), 410: gone } };
}

function deprecatedDocument(document: Schema, schedule: LifecycleRow): Schema {
  const paths: Record<string, Schema> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    // The health checks and the document itself carry servers of their own: they are not retired.
    const operations = item.servers
      ? {}
      : Object.fromEntries(METHODS.filter((m) => item[m]).map((m) => [m, retiring(item[m] as Schema)]));
    paths[path] = { ...item, ...operations };
  }
  const info = document.info as Schema;
  const sunset = schedule.sunsetAt ? `; it ends on ${schedule.sunsetAt.toISOString()}` : '';
  const guide = schedule.link ? ` The migration guide: ${schedule.link}` : '';
  const notice = `**Deprecated** since ${schedule.deprecatedAt!.toISOString()}${sunset}.${guide}`;
  return { ...document, info: { ...info, description: `${notice}\n\n${info.description}` }, paths };
}

export type ContractUsage = ReturnType<typeof createContractUsage>;

/**
 * Requests per partner per contract per UTC day, counted in memory and added to the database every
 * `flushMs` and when closed (after the listeners drained).
 */
export function createContractUsage(db: Sql, options: { flushMs?: number; logger?: Logger } = {}) {
  // `<partnerId> <contract> <day>` → the counts not written yet.
  let pending = new Map<string, ContractUsageCount>();
  const add = (count: ContractUsageCount) => {
    const key = `${count.partnerId} ${count.contract} ${count.day}`;
    const counted = pending.get(key);
    if (counted) {
      counted.requests += count.requests;
      if (count.lastSeenAt > counted.lastSeenAt) counted.lastSeenAt = count.lastSeenAt;
    } else pending.set(key, count);
  };
  const write = async () => {
    const counts = [...pending.values()];
    pending = new Map();
    try {
      await addContractUsage(db, counts);
    } catch (err) {
      // Nothing was added: keep the counts for the next write.
      for (const count of counts) add(count);
      options.logger?.warn('contract usage not written', { error: errorText(err) });
    }
  };
  const writes = periodicWrite(write, options.flushMs ?? 5000);
  return {
    record(partnerId: string, contract: Contract, at: number) {
      const lastSeenAt = new Date(at);
      add({ partnerId, contract, day: lastSeenAt.toISOString().slice(0, 10), requests: 1, lastSeenAt });
    },
    flush: writes.flush,
    close: writes.stop,
  };
}
