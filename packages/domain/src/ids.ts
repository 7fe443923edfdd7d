/** Ids in paths are UUIDs; anything else can name nothing, so it is NOT_FOUND before any query. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

export function canonicalUuid(id: string): string | null {
  return UUID.test(id) ? id.toLowerCase() : null;
}
