/** An application's steps: valid data for each, with the amounts that matter to matching varied, and the PATCH that saves one. */
import { VALID_STEPS, type LoanType } from '../support';
import { between, num } from './random';
import type { User } from './user';

/** Valid data for a step, with the amounts that matter to matching varied. */
export function stepData(formType: LoanType, step: 1 | 2 | 3 | 4): Record<string, unknown> {
  const base: Record<string, unknown> = { ...VALID_STEPS[formType][step] };
  const income = num(between(2500, 22000));
  if (formType === 'personal') {
    if (step === 1) base.loanAmount = num(between(2000, 90000));
    if (step === 2) base.loanTerm = between(1, 7);
    if (step === 3) base.grossMonthlyIncome = income;
  } else if (formType === 'car') {
    if (step === 2) Object.assign(base, { loanAmount: num(between(5000, 60000)), loanTerm: between(1, 5) });
    if (step === 3) base.grossMonthlyIncome = income;
  } else {
    if (step === 3) base.loanAmount = num(between(100000, 700000));
    if (step === 4) base.grossMonthlyIncome = income;
  }
  return base;
}

/** PATCH one step; answers the application's steps as saved. */
export async function saveStep(
  user: User,
  id: string,
  formType: LoanType,
  step: 2 | 3 | 4,
  auth: Record<string, string>,
): Promise<unknown> {
  const saved = await user.rec.send({
    endpoint: 'A PATCH /applications/:id',
    method: 'PATCH',
    url: `${user.home.a}/applications/${id}`,
    headers: auth,
    body: { step, data: stepData(formType, step) },
  });
  if (!user.expect(`PATCH step ${step}`, saved, 200)) return undefined;
  user.ledger.get(id).stepsSaved.add(step);
  if (saved.body?.data?.lastStep < step)
    user.rec.anomaly(`PATCH step ${step}: lastStep ${saved.body?.data?.lastStep}`, saved);
  return saved.body?.data?.steps;
}
