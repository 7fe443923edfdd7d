/** Application statuses (CONTRACT.md), in the only order they move. */
export type ApplicationStatus = 'draft' | 'in_progress' | 'credit_checked' | 'matched' | 'referred';
export const STATUS_ORDER: readonly ApplicationStatus[] = [
  'draft',
  'in_progress',
  'credit_checked',
  'matched',
  'referred',
];

/** Status only moves forward: saving a step after the check keeps `credit_checked`, `matched` or `referred`. */
export function laterStatus(current: ApplicationStatus, next: ApplicationStatus): ApplicationStatus {
  return STATUS_ORDER.indexOf(next) > STATUS_ORDER.indexOf(current) ? next : current;
}
