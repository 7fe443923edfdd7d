import type { Db, Json } from './types';

/** The catalogue as stored: the document's settings, its lenders and its active products. */
export interface StoredCatalogue {
  version: string;
  settings: Json;
  updatedAt: Date;
  lenders: Array<{ id: string; name: string; url: string }>;
  products: Json[];
}

export interface CatalogueDocumentParts {
  version: string;
  settings: Json;
  lenders: Array<{ id: string; name: string; url: string }>;
  products: Array<{ id: string; lenderId: string; formType: string; name: string; definition: Json }>;
}

/** When the catalogue in force last changed, or null when none was ever loaded. */
export async function catalogueStamp(db: Db): Promise<Date | null> {
  const row = await db.prisma.catalogueMeta.findUnique({ where: { id: 'current' }, select: { updatedAt: true } });
  return row?.updatedAt ?? null;
}

export async function readCatalogue(db: Db): Promise<StoredCatalogue | null> {
  const meta = await db.prisma.catalogueMeta.findUnique({ where: { id: 'current' } });
  if (!meta) return null;
  const [lenders, products] = await Promise.all([
    db.prisma.lender.findMany({
      where: { active: true },
      orderBy: { id: 'asc' },
      select: { id: true, name: true, url: true },
    }),
    db.prisma.product.findMany({ where: { active: true }, orderBy: { id: 'asc' }, select: { definition: true } }),
  ]);
  return {
    version: meta.version,
    settings: meta.settings as Json,
    updatedAt: meta.updatedAt,
    lenders,
    products: products.map((p) => p.definition as Json),
  };
}

/**
 * Puts a whole catalogue in force in one transaction: lenders and products upserted, those no longer
 * listed deactivated (kept, so past referrals still name them).
 */
export async function replaceCatalogue(db: Db, doc: CatalogueDocumentParts, at: Date): Promise<void> {
  await db.transaction(
    async ({ prisma: tx }) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('loanmatch:catalogue'))`);
      await tx.lender.updateMany({ data: { active: false } });
      await tx.product.updateMany({ data: { active: false } });
      for (const l of doc.lenders) {
        const data = { name: l.name, url: l.url, active: true, version: doc.version, updatedAt: at };
        await tx.lender.upsert({ where: { id: l.id }, create: { id: l.id, ...data }, update: data });
      }
      for (const p of doc.products) {
        const data = {
          lenderId: p.lenderId,
          formType: p.formType,
          name: p.name,
          definition: p.definition as object,
          active: true,
          version: doc.version,
          updatedAt: at,
        };
        await tx.product.upsert({ where: { id: p.id }, create: { id: p.id, ...data }, update: data });
      }
      const meta = { version: doc.version, settings: doc.settings as object, updatedAt: at };
      await tx.catalogueMeta.upsert({ where: { id: 'current' }, create: { id: 'current', ...meta }, update: meta });
    },
    { timeoutMs: 60_000 },
  );
}
