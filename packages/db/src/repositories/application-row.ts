/**
 * An application row as the domain sees it, and how it is read: the columns of an application and its
 * credit check's summary (`APPLICATION_COLUMNS_SQL`) and their conversion (`fromJoined`), shared by the
 * reads of applications.ts and the one-statement writes of status-changes.ts.
 */
import type { Json } from './types';

export type StepNumber = 1 | 2 | 3 | 4;

export interface CreditCheckSummary {
  status: 'running' | 'completed';
  degradedMode: boolean;
  sandboxMode: boolean;
  completedAt: Date | null;
}

/** Steps whose personal fields are kept apart, sealed. */
export type SealedStepNumber = 2 | 3 | 4;

/** An application as the domain sees it: never the applicant's details, never the score. */
export interface ApplicationRow {
  id: string;
  partnerId: string;
  formType: string;
  status: string;
  lastStep: number;
  /** Steps 1-4 without their personal fields (those are in `sealedSteps`). */
  steps: Partial<Record<StepNumber, Json>>;
  /** The personal fields of steps 2-4 (employer, addresses), sealed; opened only by the calls that show them. */
  sealedSteps: Partial<Record<SealedStepNumber, string>>;
  createdAt: Date;
  updatedAt: Date;
  creditCheck: CreditCheckSummary | null;
  /** The applicant's personal data was erased: the application takes none again (no step is saved). */
  personalDataErased: boolean;
}

type Raw = {
  id: string;
  partnerId: string;
  formType: string;
  status: string;
  lastStep: number;
  step1: unknown;
  step2: unknown;
  step3: unknown;
  step4: unknown;
  step2Sealed: string | null;
  step3Sealed: string | null;
  step4Sealed: string | null;
  createdAt: Date;
  updatedAt: Date;
  creditCheck: { status: string; degradedMode: boolean; sandboxMode: boolean; completedAt: Date | null } | null;
  personalDataErased: boolean;
};

export function toRow(raw: Raw): ApplicationRow {
  const steps: Partial<Record<StepNumber, Json>> = { 1: raw.step1 as Json };
  if (raw.step2) steps[2] = raw.step2 as Json;
  if (raw.step3) steps[3] = raw.step3 as Json;
  if (raw.step4) steps[4] = raw.step4 as Json;
  const sealedSteps: Partial<Record<SealedStepNumber, string>> = {};
  if (raw.step2Sealed) sealedSteps[2] = raw.step2Sealed;
  if (raw.step3Sealed) sealedSteps[3] = raw.step3Sealed;
  if (raw.step4Sealed) sealedSteps[4] = raw.step4Sealed;
  // Each field named: every row has exactly these, in this order (one shape for V8), and nothing else a
  // caller's object carried comes along.
  return {
    id: raw.id,
    partnerId: raw.partnerId,
    formType: raw.formType,
    status: raw.status,
    lastStep: raw.lastStep,
    steps,
    sealedSteps,
    createdAt: raw.createdAt,
    updatedAt: raw.updatedAt,
    creditCheck: raw.creditCheck as CreditCheckSummary | null,
    personalDataErased: raw.personalDataErased,
  };
}

/** The application and its credit check's summary, read in one statement (`a` and `c`). */
export const APPLICATION_COLUMNS_SQL = `a.id::text AS id, a.partner_id::text AS partner_id, a.form_type, a.status, a.last_step,
   a.step_1, a.step_2, a.step_3, a.step_4, a.step_2_sealed, a.step_3_sealed, a.step_4_sealed, a.created_at, a.updated_at, a.personal_data_erased_at IS NOT NULL AS personal_data_erased,
   c.status AS check_status, c.degraded_mode, c.sandbox_mode, c.completed_at`;

export interface JoinedRow {
  id: string;
  partner_id: string;
  form_type: string;
  status: string;
  last_step: number;
  step_1: unknown;
  step_2: unknown;
  step_3: unknown;
  step_4: unknown;
  step_2_sealed: string | null;
  step_3_sealed: string | null;
  step_4_sealed: string | null;
  created_at: Date;
  updated_at: Date;
  personal_data_erased: boolean;
  check_status: string | null;
  degraded_mode: boolean | null;
  sandbox_mode: boolean | null;
  completed_at: Date | null;
}

export function fromJoined(r: JoinedRow): ApplicationRow {
  return toRow({
    id: r.id,
    partnerId: r.partner_id,
    formType: r.form_type,
    status: r.status,
    lastStep: Number(r.last_step),
    step1: r.step_1,
    step2: r.step_2,
    step3: r.step_3,
    step4: r.step_4,
    step2Sealed: r.step_2_sealed,
    step3Sealed: r.step_3_sealed,
    step4Sealed: r.step_4_sealed,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    personalDataErased: Boolean(r.personal_data_erased),
    creditCheck:
      r.check_status === null
        ? null
        : {
            status: r.check_status,
            degradedMode: Boolean(r.degraded_mode),
            sandboxMode: Boolean(r.sandbox_mode),
            completedAt: r.completed_at,
          },
  });
}
