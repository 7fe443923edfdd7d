import type { Json, Queryable } from './types';

export type StepNumber = 1 | 2 | 3 | 4;

export interface CreditCheckSummary {
  status: 'running' | 'completed';
  degradedMode: boolean;
  sandboxMode: boolean;
  completedAt: Date | null;
}

/** An application as the domain sees it: never the applicant's details, never the score. */
export interface ApplicationRow {
  id: string;
  partnerId: string;
  formType: string;
  status: string;
  lastStep: number;
  steps: Partial<Record<StepNumber, Json>>;
  createdAt: Date;
  updatedAt: Date;
  creditCheck: CreditCheckSummary | null;
}

const withCheck = {
  creditCheck: { select: { status: true, degradedMode: true, sandboxMode: true, completedAt: true } },
} as const;

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
  createdAt: Date;
  updatedAt: Date;
  creditCheck: { status: string; degradedMode: boolean; sandboxMode: boolean; completedAt: Date | null } | null;
};

function toRow(raw: Raw): ApplicationRow {
  const steps: Partial<Record<StepNumber, Json>> = { 1: raw.step1 as Json };
  if (raw.step2) steps[2] = raw.step2 as Json;
  if (raw.step3) steps[3] = raw.step3 as Json;
  if (raw.step4) steps[4] = raw.step4 as Json;
  const { step1: _1, step2: _2, step3: _3, step4: _4, creditCheck, ...rest } = raw;
  return { ...rest, steps, creditCheck: creditCheck as CreditCheckSummary | null };
}

export async function insertApplication(
  db: Queryable,
  app: { id: string; partnerId: string; formType: string; status: string; step1: Json; securityTokenHash?: string },
): Promise<ApplicationRow> {
  const raw = await db.application.create({ data: { ...app, lastStep: 1, step1: app.step1 as object }, include: withCheck });
  return toRow(raw);
}

/** The partner's application, or null for another partner's or an unknown id (callers cannot tell which). */
export async function findApplication(db: Queryable, id: string, partnerId: string): Promise<ApplicationRow | null> {
  const raw = await db.application.findFirst({ where: { id, partnerId }, include: withCheck });
  return raw ? toRow(raw) : null;
}

export async function updateStep(
  db: Queryable,
  id: string,
  change: { step: 2 | 3 | 4; data: Json; status: string; lastStep: number },
): Promise<ApplicationRow> {
  const column = `step${change.step}` as 'step2' | 'step3' | 'step4';
  const raw = await db.application.update({
    where: { id },
    data: { [column]: change.data as object, status: change.status, lastStep: change.lastStep },
    include: withCheck,
  });
  return toRow(raw);
}

export async function updateStatus(db: Queryable, id: string, change: { status: string; lastStep: number }): Promise<void> {
  await db.application.update({ where: { id }, data: change });
}

/** Variant B: the digest of the application's security token, for the partner's own application only. */
export async function findSecurityTokenHash(db: Queryable, id: string, partnerId: string): Promise<string | null | undefined> {
  const row = await db.application.findFirst({ where: { id, partnerId }, select: { securityTokenHash: true } });
  return row === null ? undefined : row.securityTokenHash;
}
