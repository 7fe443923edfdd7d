/** Ids in paths are UUIDs; anything else can name nothing, so it is NOT_FOUND before any query. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function canonicalUuid(id: string): string | null {
  return UUID.test(id) ? id.toLowerCase() : null;
}
