/**
 * The calls `pnpm bench` measures and the goals each is held to: the one list that the options, the
 * phases and the report read.
 */

export const CALLS = [
  { name: 'get', label: 'A GET application', p99GoalMs: 10, cpuGoalX: 3 },
  { name: 'get-retiring', label: 'A GET, deprecated', p99GoalMs: 10, cpuGoalX: 3 },
  { name: 'lead', label: 'Lender lead', p99GoalMs: 10 },
  { name: 'create', label: 'A create', p99GoalMs: 10, cpuGoalX: 6 },
  { name: 'patch', label: 'A PATCH step', p99GoalMs: 10 },
  { name: 'check', label: 'A credit check', p99GoalMs: 20 },
  { name: 'match', label: 'A match', p99GoalMs: 10, cpuGoalX: 8 },
  { name: 'b-match', label: 'B match', p99GoalMs: 10 },
  // Recording a referral (lead ownership's lock and check included) within 1.2 times GET's goal.
  { name: 'track', label: 'A tracking link', p99GoalMs: 12 },
] as const satisfies ReadonlyArray<{ name: string; label: string; p99GoalMs: number; cpuGoalX?: number }>;

export type CallName = (typeof CALLS)[number]['name'];
export type CallInfo = { name: CallName; label: string; p99GoalMs: number; cpuGoalX?: number };

export const callInfo = (name: CallName): CallInfo => CALLS.find((c) => c.name === name)!;

/** A GET whose contract is deprecated for its partner (headers added) against the plain GET's CPU per request. */
export const RETIRING_GET_GOAL_X = 1.05;

/** Cost as data grows: the sizes compared, the calls read at each, and the bounds. */
export const GROWTH = {
  sizes: [10_000, 1_000_000] as const,
  calls: ['get', 'match'] as const satisfies readonly CallName[],
  p50RatioGoal: 1.25,
  residentGoalMb: 300,
};

/** Matching one application against 1,000 products, in ms: on average over the applications, and the slowest. */
export const ENGINE_GOAL_MS = { average: 1, slowest: 2 } as const;

/**
 * The floors, measured as the calls are and held to no goal: the service's stack around one statement,
 * with nothing of the service's own code (floor.ts), reading a row or inserting one.
 */
export const FLOORS = [
  { name: 'floor-read', label: 'Floor: one read' },
  { name: 'floor-write', label: 'Floor: one insert' },
] as const satisfies ReadonlyArray<{ name: string; label: string }>;

export type FloorName = (typeof FLOORS)[number]['name'];

/** Rows the read floor reads, one after the other. */
export const FLOOR_ROWS = 256;
