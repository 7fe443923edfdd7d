/** The lender catalogue in force: its settings (`catalogue_meta`), lenders and products. */
import type { Json, Sql, Transactional } from '../connect';

type Lender = { id: string; name: string; url: string; ownershipDays: number };

/** The catalogue as stored: the document's settings, its lenders and its active products. */
export type StoredCatalogue = { version: string; settings: Json; updatedAt: Date; lenders: Lender[]; products: Json[] };

type Product = { id: string; lenderId: string; formType: string; name: string; definition: Json };
export type CatalogueDocumentParts = { version: string; settings: Json; lenders: Lender[]; products: Product[] };

/** When the catalogue in force last changed, or null when none was ever loaded. */
export async function catalogueStamp(db: Sql): Promise<Date | null> {
  const [row] = await db.query<{ at: Date }>(`SELECT updated_at AS at FROM catalogue_meta WHERE id = 'current'`);
  return row?.at ?? null;
}

export async function readCatalogue(db: Sql): Promise<StoredCatalogue | null> {
  const [meta] = await db.query<Omit<StoredCatalogue, 'lenders' | 'products'>>(
    `SELECT version, settings, updated_at AS "updatedAt" FROM catalogue_meta WHERE id = 'current'`,
  );
  if (!meta) return null;
  const [lenders, products] = await Promise.all([
    db.query<Lender>('SELECT id, name, url, ownership_days AS "ownershipDays" FROM lenders WHERE active ORDER BY id'),
    db.query<{ definition: Json }>('SELECT definition FROM products WHERE active ORDER BY id'),
  ]);
  return { ...meta, lenders, products: products.map((p) => p.definition) };
}

/**
 * Puts a whole catalogue in force in one transaction: lenders and products upserted, those no longer
 * listed deactivated (kept, so past referrals still name them).
 */
export async function replaceCatalogue(db: Transactional, doc: CatalogueDocumentParts, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('loanmatch:catalogue'))`);
    await tx.query('UPDATE lenders SET active = false');
    await tx.query('UPDATE products SET active = false');
    for (const l of doc.lenders)
      await tx.query(
        `INSERT INTO lenders (id, name, url, ownership_days, active, version, updated_at)
         VALUES ($1, $2, $3, $6, true, $4, $5)
         ON CONFLICT (id) DO UPDATE SET name = $2, url = $3, ownership_days = $6, active = true, version = $4,
           updated_at = $5`,
        [l.id, l.name, l.url, doc.version, at, l.ownershipDays],
      );
    for (const p of doc.products)
      await tx.query(
        `INSERT INTO products (id, lender_id, form_type, name, definition, active, version, updated_at)
         VALUES ($1, $2, $3, $4, $5, true, $6, $7)
         ON CONFLICT (id) DO UPDATE SET lender_id = $2, form_type = $3, name = $4, definition = $5, active = true,
           version = $6, updated_at = $7`,
        [p.id, p.lenderId, p.formType, p.name, JSON.stringify(p.definition), doc.version, at],
      );
    await tx.query(
      `INSERT INTO catalogue_meta (id, version, settings, updated_at) VALUES ('current', $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET version = $1, settings = $2, updated_at = $3`,
      [doc.version, JSON.stringify(doc.settings), at],
    );
  });
}
