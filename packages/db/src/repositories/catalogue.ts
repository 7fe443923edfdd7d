/** The lender catalogue in force: its settings (`catalogue_meta`), lenders and products. */
import { sql, type Json, type Sql, type Transactional } from '../connect';

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
      await tx.query(sql`
        INSERT INTO lenders (id, name, url, ownership_days, active, version, updated_at)
        VALUES (${l.id}, ${l.name}, ${l.url}, ${l.ownershipDays}, true, ${doc.version}, ${at})
        ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url,
          ownership_days = EXCLUDED.ownership_days, active = true, version = EXCLUDED.version,
          updated_at = EXCLUDED.updated_at`);
    for (const p of doc.products)
      await tx.query(sql`
        INSERT INTO products (id, lender_id, form_type, name, definition, active, version, updated_at)
        VALUES (${p.id}, ${p.lenderId}, ${p.formType}, ${p.name}, ${JSON.stringify(p.definition)}, true,
                ${doc.version}, ${at})
        ON CONFLICT (id) DO UPDATE SET lender_id = EXCLUDED.lender_id, form_type = EXCLUDED.form_type,
          name = EXCLUDED.name, definition = EXCLUDED.definition, active = true, version = EXCLUDED.version,
          updated_at = EXCLUDED.updated_at`);
    await tx.query(sql`
      INSERT INTO catalogue_meta (id, version, settings, updated_at)
      VALUES ('current', ${doc.version}, ${JSON.stringify(doc.settings)}, ${at})
      ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, settings = EXCLUDED.settings,
        updated_at = EXCLUDED.updated_at`);
  });
}
