/** Application statuses (CONTRACT.md), in the only order they move. */
export type ApplicationStatus = 'draft' | 'in_progress' | 'credit_checked' | 'matched' | 'referred';
export const STATUS_ORDER: readonly ApplicationStatus[] = [
  'draft',
  'in_progress',
  'credit_checked',
  'matched',
  'referred',
];
