/** Application statuses, in the only order they move. */
export const STATUS_ORDER = ['draft', 'in_progress', 'credit_checked', 'matched', 'referred'] as const;
export type ApplicationStatus = (typeof STATUS_ORDER)[number];
