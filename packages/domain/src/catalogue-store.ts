import { catalogueStamp, readCatalogue, replaceCatalogue, type Transactional } from '@loanmatch/db';
import { fail, ok } from './errors';
import { loadCatalogue, type Catalogue, type CatalogueFile } from './matching';
import { DEFAULT_OWNERSHIP_DAYS } from './ownership';

/** Checks the catalogue's stamp at most every `refreshMs`, and reloads it when it changed. */
export function createCatalogueSource(db: Transactional, options: { refreshMs?: number } = {}) {
  const refreshMs = options.refreshMs ?? 2000;
  let cached: { stamp: number; catalogue: Catalogue } | undefined;
  let checkedAt = -Infinity;
  let pending: Promise<Catalogue> | undefined;

  async function refresh(): Promise<Catalogue> {
    const stamp = (await catalogueStamp(db))?.getTime();
    checkedAt = Date.now();
    if (cached && cached.stamp === stamp) return cached.catalogue;
    const stored = await readCatalogue(db);
    if (!stored) throw new Error('no lender catalogue is loaded');
    const loaded = loadStored(stored);
    // The stored catalogue passed this same check when it was put in force; failing now is a bug.
    if (!loaded.ok) throw new Error(`stored catalogue does not load: ${loaded.error.message}`);
    cached = { stamp: stored.updatedAt.getTime(), catalogue: loaded.value };
    return loaded.value;
  }

  return {
    async current(): Promise<Catalogue> {
      if (cached && Date.now() - checkedAt < refreshMs) return cached.catalogue;
      pending ??= refresh().finally(() => (pending = undefined));
      return pending;
    },
  };
}

/** Puts a catalogue document in force once it passes every rule; it is known by its `effectiveFrom` date. */
export async function putCatalogue(ctx: { db: Transactional; clock: () => Date }, options: { document: unknown }) {
  const loaded = loadCatalogue(options.document);
  if (!loaded.ok) return loaded;
  // It passed the catalogue's schema: the document is a catalogue file.
  const { lenders, products, ...settings } = options.document as CatalogueFile;
  const { effectiveFrom } = settings;
  await replaceCatalogue(
    ctx.db,
    {
      version: effectiveFrom,
      settings,
      lenders: lenders.map((l) => ({ ...l, ownershipDays: l.ownershipDays ?? DEFAULT_OWNERSHIP_DAYS })),
      products: products.map((p) => ({
        id: p.id,
        lenderId: p.lenderId,
        formType: p.loanType,
        name: p.name,
        definition: p,
      })),
    },
    ctx.clock(),
  );
  return ok({ effectiveFrom, lenders: lenders.length, products: products.length });
}

export async function getCatalogueSummary(ctx: { db: Transactional }) {
  const stored = await readCatalogue(ctx.db);
  if (!stored) return fail('NOT_FOUND', 'No catalogue is loaded');
  const { version: effectiveFrom, lenders, products, updatedAt } = stored;
  return ok({ effectiveFrom, lenders: lenders.length, products: products.length, updatedAt: updatedAt.toISOString() });
}

/** At start: loads the catalogue file unless the database has one as recent that still passes the rules. */
export async function seedCatalogue(ctx: { db: Transactional; clock: () => Date }, options: { document: unknown }) {
  const stored = await readCatalogue(ctx.db);
  const fileEffectiveFrom = String((options.document as { effectiveFrom?: unknown })?.effectiveFrom);
  if (stored && stored.version >= fileEffectiveFrom && loadStored(stored).ok) return ok(null);
  return putCatalogue(ctx, options);
}

export type CatalogueSource = ReturnType<typeof createCatalogueSource>;

function loadStored(stored: NonNullable<Awaited<ReturnType<typeof readCatalogue>>>) {
  return loadCatalogue({ ...stored.settings, lenders: stored.lenders, products: stored.products });
}
