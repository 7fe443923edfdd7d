/** The query of the paged lists, checked against `pageQuerySchema`: `limit`, and the referrals' `cursor`. */
import { invalid, ok, violation, type Result } from '../errors';
import { canonicalUuid } from '../ids';
import { pageQuerySchema } from './requests';

const { limit: LIMIT, cursor: CURSOR } = pageQuerySchema.properties;
const [LIMIT_MIN, LIMIT_MAX] = [LIMIT.minimum ?? 1, LIMIT.maximum ?? 1];
/** Whole numbers written with at most as many digits as the maximum has. */
const LIMIT_DIGITS = new RegExp(`^\\d{1,${String(LIMIT_MAX).length}}$`);
const CURSOR_MAX = CURSOR.maxLength ?? 0;
const CURSOR_TEXT = new RegExp(CURSOR.pattern ?? '');

/** `limit` as sent in the query, or its default. */
export function parsePageLimit(raw: string | undefined): Result<number> {
  if (raw === undefined) return ok(Number(LIMIT.default));
  const limit = LIMIT_DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (limit >= LIMIT_MIN && limit <= LIMIT_MAX) return ok(limit);
  return invalid(violation('limit', 'range', `must be a whole number between ${LIMIT_MIN} and ${LIMIT_MAX}`));
}

/**
 * The text of a `cursor` as sent: at most its maximum length (the refusal names it), in the cursor's
 * alphabet. Whether it decodes to a cursor this API gave out is the list's own check.
 */
export function checkCursorText(raw: string): Result<string> {
  if (raw.length > CURSOR_MAX)
    return invalid(violation('cursor', 'maxLength', `must be at most ${CURSOR_MAX} characters`));
  return CURSOR_TEXT.test(raw) ? ok(raw) : invalidCursor();
}

export function invalidCursor(): Result<never> {
  return invalid(violation('cursor', 'format', 'is not a cursor this API gave out'));
}

/** Where a page ends: its last item's time and id, given out as an opaque cursor. */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

export const encodeCursor = (p: PagePosition): string =>
  Buffer.from(`${p.createdAt.getTime()}|${p.id}`).toString('base64url');

/**
 * The page of a list read newest first with one row more than `limit`: that row, when it came, says another
 * page follows, which starts after the page's last item.
 */
export function pageOf<Row>(rows: Row[], limit: number, positionOf: (row: Row) => PagePosition) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : null };
}

/** A cursor this API gave out, read back. */
export function decodeCursor(raw: string): Result<PagePosition> {
  const text = checkCursorText(raw);
  if (!text.ok) return text;
  const [ms, uuid] = Buffer.from(text.value, 'base64url').toString('utf8').split('|');
  const id = canonicalUuid(uuid ?? '');
  if (!/^\d{1,15}$/.test(ms ?? '') || !id) return invalidCursor();
  return ok({ createdAt: new Date(Number(ms)), id });
}
