/**
 * Repayments and comparison rates against figures worked independently of the code under test.
 *
 * Repayments use the annuity formula P = (L − B·v^n)·i / (1 − v^n), with i = annual rate / 12 and
 * v = 1 / (1 + i). Comparison rates are the monthly IRR × 12 of: the borrower receives the amount less
 * the establishment fee at month 0, and pays repayment + monthly fee at the end of each month.
 * Every expected figure below was computed with a separate Python script (plain bisection on the
 * present value, 200 halvings of [0, 1] per month), never with this package:
 *
 *   def pmt(L, rate, n, B=0): i = rate/1200; v = (1+i)**-n; return (L - B*v)*i/(1-v)
 *   def irr(advance, flows):  # 1200 × the monthly rate at which Σ flows[t]/(1+i)^(t+1) = advance
 *       lo, hi = 0.0, 1.0
 *       for _ in range(200):
 *           mid = (lo+hi)/2
 *           if sum(c/(1+mid)**(t+1) for t, c in enumerate(flows)) > advance: lo = mid
 *           else: hi = mid
 *       return mid*1200
 */
import { COST_RATE_CAP_PERCENT, comparisonRate, monthlyRepayment } from '../../src/matching';

describe('monthlyRepayment', () => {
  test.each`
    case                                                     | principal | rate    | months | balloon  | expected
    ${'$30,000 at 10% over 60 months'}                       | ${30000}  | ${10}   | ${60}  | ${0}     | ${637.4113}
    ${'$40,000 at 8% over 60 months, $12,000 balloon'}       | ${40000}  | ${8}    | ${60}  | ${12000} | ${647.739}
    ${'$600,000 at 6.5% over 300 months (after 5 years IO)'} | ${600000} | ${6.5}  | ${300} | ${0}     | ${4051.243}
    ${'$12,000 at 0% over 12 months'}                        | ${12000}  | ${0}    | ${12}  | ${0}     | ${1000}
    ${'$637,500 at 6.09% over 360 months'}                   | ${637500} | ${6.09} | ${360} | ${0}     | ${3859.0999}
  `('when $case, then the repayment is $expected', ({ principal, rate, months, balloon, expected }) => {
    // i = 0.10/12 = 0.0083333; v^60 = 1.0083333^-60 = 0.6077886; 30000 × 0.0083333 / (1 − 0.6077886) = 30000 × 0.0212470 = 637.4113.
    // Balloon: v^60 = 1.0066667^-60 = 0.6712104, so the balloon is worth 12000 × 0.6712104 = 8054.5253 today;
    // (40000 − 8054.5253) × 0.0066667 / (1 − 0.6712104) = 31945.4747 × 0.0202764 = 647.7390.
    expect(monthlyRepayment(principal, rate, months, balloon)).toBeCloseTo(expected, 3);
  });

  test('when there is a balloon, then the repayment is lower than without, by the balloon amortised over the term', () => {
    const without = monthlyRepayment(40000, 8, 60);
    const withBalloon = monthlyRepayment(40000, 8, 60, 12000);
    // Without a balloon: 40000 × 0.0202764 = 811.0558; the balloon's share is 8054.5253 × 0.0202764 = 163.3167.
    expect(without).toBeCloseTo(811.06, 2);
    expect(without - withBalloon).toBeCloseTo(163.32, 2);
  });
});

describe('comparisonRate', () => {
  test.each`
    case                                                         | amount    | rate    | months | fee    | monthlyFee | io    | expected
    ${'$30,000 at 10% over 5 years, no fees'}                    | ${30000}  | ${10}   | ${60}  | ${0}   | ${0}       | ${0}  | ${10}
    ${'$30,000 at 10% over 5 years, $250 + $10 a month'}         | ${30000}  | ${10}   | ${60}  | ${250} | ${10}      | ${0}  | ${11.0387}
    ${'$150,000 at 5.89% over 25 years, $600 + $10 a month'}     | ${150000} | ${5.89} | ${300} | ${600} | ${10}      | ${0}  | ${6.0416}
    ${'$150,000 at 6.29% over 25 years, 5 years IO, $600 + $10'} | ${150000} | ${6.29} | ${300} | ${600} | ${10}      | ${60} | ${6.4294}
    ${'$150,000 at 6.5% over 25 years, 5 years IO, $600 + $10'}  | ${150000} | ${6.5}  | ${300} | ${600} | ${10}      | ${60} | ${6.6393}
    ${'$5,000 at 30% over 2 years, $400 + $20 a month'}          | ${5000}   | ${30}   | ${24}  | ${400} | ${20}      | ${0}  | ${47.169}
    ${'$5,000 at 45% over 2 years, $400 + $20 a month'}          | ${5000}   | ${45}   | ${24}  | ${400} | ${20}      | ${0}  | ${62.2947}
  `(
    'when $case, then the comparison rate is $expected% a year',
    ({ amount, rate, months, fee, monthlyFee, io, expected }) => {
      // Worked: 29,750 received; 60 payments of 637.4113 + 10 = 647.4113; irr(29750, [647.4113]*60) = 11.0387 (quoted 11.04).
      // 149,400 received; 300 payments of pmt(150000, 5.89, 300) + 10 = 966.3912; irr = 6.0416 (quoted 6.04).
      // IO: 60 × (150000 × 0.0629/12 + 10) = 60 × 796.25, then 240 × (pmt(150000, 6.29, 240) + 10); irr = 6.4294 (quoted 6.43).
      const exact = comparisonRate({
        amount,
        termMonths: months,
        annualRatePercent: rate,
        establishmentFee: fee,
        monthlyFee,
        interestOnlyMonths: io,
      });
      expect(exact).toBeCloseTo(expected, 3);
    },
  );

  test('when a car loan at 7.49% with $250 + $10 a month is quoted on the car benchmark, $30,000 over 5 years, then it is 8.54%, not the 7.68% of $150,000 over 7 years', () => {
    // 30000 × pmt(1, 7.49, 60): i = 0.0062417, v^60 = 1.0062417^-60 = 0.6884338, 30000 × 0.0062417 / (1 − 0.6884338) = 600.9959;
    // 29,750 received, 60 × 610.9959 paid: irr = 8.5439 → 8.54. The same fees spread over $150,000 and 84 months:
    // 149,750 received, 84 × (pmt(150000, 7.49, 84) + 10): irr = 7.6769 → 7.68, the figure that hid the fees.
    const loan = { annualRatePercent: 7.49, establishmentFee: 250, monthlyFee: 10 };
    expect(monthlyRepayment(30000, 7.49, 60)).toBeCloseTo(600.9959, 3);
    expect(comparisonRate({ ...loan, amount: 30000, termMonths: 60 })).toBeCloseTo(8.5439, 3);
    expect(comparisonRate({ ...loan, amount: 150000, termMonths: 84 })).toBeCloseTo(7.6769, 3);
  });

  test('when an interest-only loading applies during the period only, then the flows revert to the lower rate after it', () => {
    // $150,000: 60 × (150000 × 0.065 / 12 + 10) = 60 × 822.50, then 240 × (pmt(150000, 5.89, 240) + 10) = 240 × 1,075.1494;
    // irr(149400, …) = 6.2897. With the loading for the whole term it was 6.6393 (the table above).
    const exact = comparisonRate({
      amount: 150000,
      termMonths: 300,
      annualRatePercent: 6.5,
      revertRatePercent: 5.89,
      establishmentFee: 600,
      monthlyFee: 10,
      interestOnlyMonths: 60,
    });
    expect(exact).toBeCloseTo(6.2897, 3);
  });

  test('when an LMI premium is capitalised or paid at settlement, then the comparison rate includes it either way', () => {
    // Capitalised $1,500: 149,400 received, 300 × (pmt(151500, 5.89, 300) + 10) = 300 × 975.9551; irr = 6.1459.
    // At settlement: 150,000 − 600 − 1,500 = 147,900 received, 300 × (pmt(150000, 5.89, 300) + 10); irr = 6.1485.
    const loan = { amount: 150000, termMonths: 300, annualRatePercent: 5.89, establishmentFee: 600, monthlyFee: 10 };
    expect(comparisonRate(loan)).toBeCloseTo(6.0416, 3);
    expect(comparisonRate({ ...loan, lmiPremium: 1500, lmiCapitalised: true })).toBeCloseTo(6.1459, 3);
    expect(comparisonRate({ ...loan, lmiPremium: 1500, lmiCapitalised: false })).toBeCloseTo(6.1485, 3);
  });

  test('when fees are added, then the comparison rate is above the interest rate, and without fees it equals it', () => {
    const base = { amount: 30000, termMonths: 60, annualRatePercent: 10, establishmentFee: 0, monthlyFee: 0 };
    expect(comparisonRate(base)).toBeCloseTo(10, 8);
    expect(comparisonRate({ ...base, establishmentFee: 250 })).toBeGreaterThan(10.1);
    expect(comparisonRate({ ...base, monthlyFee: 10 })).toBeGreaterThan(10.3);
  });

  test('when the cap is read, then it is 48% a year', () => {
    expect(COST_RATE_CAP_PERCENT).toBe(48);
  });
});
