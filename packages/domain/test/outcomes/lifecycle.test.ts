import fc from 'fast-check';
import { ALLOWED_NEXT, OUTCOME_TYPES, type OutcomeType } from '../../src/outcomes/lifecycle';
import { lifecyclePath, transitionText, type LifecycleEvent } from '../../src/outcomes/lifecycle';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));
let seq = 0;
const event = (type: OutcomeType, minute: number): LifecycleEvent => ({
  type,
  occurredAt: at(minute),
  fundedAmountCents: type === 'funded' ? 1_000_000 : null,
  fundedAt: type === 'funded' ? at(minute) : null,
  seq: seq++,
});
const types = (path: ReturnType<typeof lifecyclePath>) => (path.ok ? path.events.map((e) => e.type) : path);

describe('the referral lifecycle', () => {
  it('when events are given in any order, then the path is read in the order they occurred', () => {
    const path = lifecyclePath([event('funded', 30), event('application_started', 10), event('approved', 20)]);
    expect(types(path)).toEqual(['application_started', 'approved', 'funded']);
  });

  it('when two events occurred at the same instant, then they are read in the order of the stages', () => {
    expect(types(lifecyclePath([event('funded', 5), event('approved', 5), event('application_started', 5)]))).toEqual([
      'application_started',
      'approved',
      'funded',
    ]);
  });

  it('when a funded loan is declined afterwards, then the path breaks at the decline; when cancelled, it holds', () => {
    const declined = event('declined', 40);
    expect(lifecyclePath([event('funded', 30), declined])).toEqual({ ok: false, from: 'funded', to: declined });
    expect(types(lifecyclePath([event('funded', 30), event('cancelled', 40)]))).toEqual(['funded', 'cancelled']);
  });

  it('when an event falls before one it cannot precede, then the path breaks at the later one', () => {
    const funded = event('funded', 30);
    expect(lifecyclePath([funded, event('withdrawn', 20)])).toEqual({ ok: false, from: 'withdrawn', to: funded });
  });

  it('when declined, withdrawn or cancelled, then nothing may follow; a referral is never cancelled first', () => {
    for (const final of ['declined', 'withdrawn', 'cancelled'] as const) expect(ALLOWED_NEXT[final]).toEqual([]);
    expect(ALLOWED_NEXT.none).not.toContain('cancelled');
    expect(ALLOWED_NEXT.funded).toEqual(['cancelled']);
  });

  it('when any set of events is read, then an accepted path follows the table step by step, and a refusal names a step the table forbids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.constantFrom(...OUTCOME_TYPES), minute: fc.integer({ min: 0, max: 50 }) }), {
          maxLength: 6,
        }),
        (given) => {
          const path = lifecyclePath(given.map((g) => event(g.type, g.minute)));
          if (path.ok) {
            let state: OutcomeType | 'none' = 'none';
            for (const e of path.events) {
              expect(ALLOWED_NEXT[state]).toContain(e.type);
              state = e.type;
            }
            for (let i = 1; i < path.events.length; i++)
              expect(path.events[i].occurredAt.getTime()).toBeGreaterThanOrEqual(
                path.events[i - 1].occurredAt.getTime(),
              );
          } else {
            expect(ALLOWED_NEXT[path.from]).not.toContain(path.to.type);
          }
        },
      ),
    );
  });

  it('when a transition is refused, then the text names both statuses and what may follow', () => {
    expect(transitionText('funded', 'declined')).toBe(
      'a funded referral cannot become declined; a funded referral may only become cancelled',
    );
    expect(transitionText('declined', 'approved')).toBe(
      'a declined referral cannot become approved; declined is final',
    );
    expect(transitionText('none', 'cancelled')).toBe('a referral cannot be cancelled first');
    expect(transitionText('approved', 'application_started')).toBe(
      'an approved referral cannot become application_started; an approved referral may only become funded, declined, withdrawn, cancelled',
    );
  });
});
