/**
 * A consecutive-failure circuit breaker for one dependency.
 *
 * closed     every call goes through; `failureThreshold` failed calls in a row open it.
 * open       for `openMs` every call is refused at once, without touching the network.
 * half_open  after `openMs`: exactly one trial call goes through (others are still refused);
 *            its success closes the breaker, its failure opens it for another `openMs`.
 *
 * Written by hand rather than taken from a library: the rule is a dozen lines, it must run on an
 * injected clock, and the usual libraries (opossum) judge by a rolling error percentage and wrap
 * the call themselves, which is more than this one client needs.
 */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** What `admit` lets a call do: go through, go through as the half-open trial, or be refused. */
export type Admission = 'pass' | 'trial' | 'refuse';

export interface BreakerEvents {
  opened(reason: string): void;
  closed(reason: string): void;
}

export interface CircuitBreaker {
  state(): BreakerState;
  admit(): Admission;
  record(admission: Exclude<Admission, 'refuse'>, success: boolean): void;
}

export function createCircuitBreaker(options: {
  failureThreshold: number;
  openMs: number;
  clock: () => number;
  events: BreakerEvents;
}): CircuitBreaker {
  const { failureThreshold, openMs, clock, events } = options;
  let consecutiveFailures = 0;
  let openedAt: number | null = null;
  let trialInFlight = false;

  const state = (): BreakerState => {
    if (openedAt === null) return 'closed';
    if (trialInFlight || clock() - openedAt >= openMs) return 'half_open';
    return 'open';
  };

  const open = (reason: string) => {
    openedAt = clock();
    events.opened(reason);
  };

  return {
    state,
    admit() {
      const now = state();
      if (now === 'closed') return 'pass';
      if (now === 'open' || trialInFlight) return 'refuse';
      trialInFlight = true;
      return 'trial';
    },
    record(admission, success) {
      if (admission === 'trial') {
        trialInFlight = false;
        consecutiveFailures = 0;
        if (success) {
          openedAt = null;
          events.closed('trial request succeeded');
        } else {
          open('trial request failed');
        }
        return;
      }
      // A call admitted while closed that ends after concurrent calls opened the breaker: only the
      // trial decides when an open breaker closes, so its result is ignored.
      if (openedAt !== null) return;
      if (success) {
        consecutiveFailures = 0;
        return;
      }
      consecutiveFailures += 1;
      if (consecutiveFailures >= failureThreshold) {
        consecutiveFailures = 0;
        open(`${failureThreshold} consecutive failed requests`);
      }
    },
  };
}
