/** The query of the paged lists, against the bounds of `pageQuerySchema`. */
import { checkCursorText, parsePageLimit } from '../src/validation/page-query';
import { pageQuerySchema } from '../src/validation/requests';

const { limit, cursor } = pageQuerySchema.properties;

describe('the query of the paged lists', () => {
  it('when no limit is sent, then the default; each bound passes and one beyond is refused naming the range', () => {
    expect(parsePageLimit(undefined)).toEqual({ ok: true, value: limit.default });
    expect(parsePageLimit(String(limit.minimum))).toEqual({ ok: true, value: limit.minimum });
    expect(parsePageLimit(String(limit.maximum))).toEqual({ ok: true, value: limit.maximum });
    for (const bad of [String(Number(limit.minimum) - 1), String(Number(limit.maximum) + 1), '2.5', 'ten', '', '0100'])
      expect(parsePageLimit(bad)).toMatchObject({
        ok: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: `limit: must be a whole number between ${limit.minimum} and ${limit.maximum}`,
        },
      });
  });

  it('when a cursor is longer than its maximum, then it is refused naming the field and the limit', () => {
    const max = Number(cursor.maxLength);
    expect(checkCursorText('A'.repeat(max))).toEqual({ ok: true, value: 'A'.repeat(max) });
    expect(checkCursorText('A'.repeat(max + 1))).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: `cursor: must be at most ${max} characters`,
        details: [{ field: 'cursor', rule: 'maxLength', message: `cursor: must be at most ${max} characters` }],
      },
    });
  });

  it('when a cursor holds characters outside base64url, then it is not a cursor this API gave out', () => {
    for (const bad of ['', 'abc=', 'a b', 'ab/c'])
      expect(checkCursorText(bad)).toMatchObject({
        ok: false,
        error: { message: 'cursor: is not a cursor this API gave out' },
      });
  });
});
