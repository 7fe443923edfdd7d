/** How far a flow goes before it stops, as applicants do, with how often each stage is drawn. */

export type Stage = 'created' | 'steps' | 'checked' | 'matched' | 'full';
export const STAGES: Array<[Stage, number]> = [
  ['created', 5],
  ['steps', 8],
  ['checked', 7],
  ['matched', 10],
  ['full', 70],
];
