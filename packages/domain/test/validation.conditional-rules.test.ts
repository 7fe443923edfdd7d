/** Hand-written tests of the conditional rules of car step 1, car step 2 and home step 1. */
import { validateStepData } from '../src/validation';
import { expectError, expectOk, firstViolation } from './validation.fixtures';

describe('car step 1 conditional rules', () => {
  const PRICE_REQUIRED = {
    field: 'estimatedCarPrice',
    rule: 'required',
    message: 'estimatedCarPrice: is required when hasFoundCar is yes or carLoanPurpose is refinance',
  };
  const usedCarRequired = (field: string) => ({
    field,
    rule: 'required',
    message: `${field}: is required for a used car when hasFoundCar is yes`,
  });

  test('when hasFoundCar is yes and no price is sent, then estimatedCarPrice is required', () => {
    expect(expectError(validateStepData('car', 1, { carLoanPurpose: 'new', hasFoundCar: 'yes' })).details).toEqual([
      PRICE_REQUIRED,
    ]);
  });

  test('when hasFoundCar is yes and a price is sent, then the step is accepted', () => {
    expectOk(validateStepData('car', 1, { carLoanPurpose: 'new', hasFoundCar: 'yes', estimatedCarPrice: 30000 }));
  });

  test.each(['refinance', 'RefinanceCarLoan'])(
    'when the purpose is %s and no price is sent, then estimatedCarPrice is required',
    (carLoanPurpose) => {
      expect(expectError(validateStepData('car', 1, { carLoanPurpose })).details).toEqual([PRICE_REQUIRED]);
    },
  );

  test.each(['refinance', 'RefinanceCarLoan'])(
    'when the purpose is %s and a price is sent, then the step is accepted',
    (carLoanPurpose) => {
      expectOk(validateStepData('car', 1, { carLoanPurpose, hasFoundCar: 'no', estimatedCarPrice: '12000' }));
    },
  );

  test.each(['new', 'used', 'NewCarPurchase', 'UsedCarPurchase'])(
    'when the purpose is %s and the car is not found yet, then no price, year or sale type is required',
    (carLoanPurpose) => {
      expect(expectOk(validateStepData('car', 1, { carLoanPurpose, hasFoundCar: 'no' }))).toEqual({
        carLoanPurpose,
        hasFoundCar: 'no',
      });
    },
  );

  test('when hasFoundCar is not sent, then no conditional field is required', () => {
    expectOk(validateStepData('car', 1, { carLoanPurpose: 'used' }));
  });

  test.each(['used', 'UsedCarPurchase'])(
    'when a %s car has been found and year and sale type are missing, then both are required',
    (carLoanPurpose) => {
      expect(
        expectError(validateStepData('car', 1, { carLoanPurpose, hasFoundCar: 'yes', estimatedCarPrice: 15000 }))
          .details,
      ).toEqual([usedCarRequired('vehicleYear'), usedCarRequired('usedCarSaleType')]);
    },
  );

  test.each(['used', 'UsedCarPurchase'])(
    'when a %s car has been found with price, year and sale type, then the step is accepted',
    (carLoanPurpose) => {
      expectOk(
        validateStepData('car', 1, {
          carLoanPurpose,
          hasFoundCar: 'yes',
          estimatedCarPrice: 15000,
          vehicleYear: '2015',
          usedCarSaleType: 'private',
        }),
      );
    },
  );

  test('when a found used car lacks price, year and sale type, then all three are listed in table order', () => {
    expect(expectError(validateStepData('car', 1, { carLoanPurpose: 'used', hasFoundCar: 'yes' })).details).toEqual([
      PRICE_REQUIRED,
      usedCarRequired('vehicleYear'),
      usedCarRequired('usedCarSaleType'),
    ]);
  });

  test('when a new car has been found, then year and sale type are not required', () => {
    expectOk(
      validateStepData('car', 1, { carLoanPurpose: 'NewCarPurchase', hasFoundCar: 'yes', estimatedCarPrice: 40000 }),
    );
  });

  test('when a conditional field is sent although not required, then its bounds still apply', () => {
    expect(firstViolation(validateStepData('car', 1, { carLoanPurpose: 'new', vehicleYear: 1989 })).message).toBe(
      'vehicleYear: must be between 1990 and 2027',
    );
  });
});

describe('car step 2 balloon rule', () => {
  const BALLOON = {
    field: 'balloonPaymentPercent',
    rule: 'const',
    message: 'balloonPaymentPercent: must be 0 when loanTerm is 6 or 7',
  };

  test.each<[unknown]>([[6], [7], ['6'], ['7']])(
    'when loanTerm is %p and a balloon is asked for, then it is rejected',
    (loanTerm) => {
      expect(
        expectError(validateStepData('car', 2, { loanAmount: 20000, loanTerm, balloonPaymentPercent: 10 })).details,
      ).toEqual([BALLOON]);
    },
  );

  test.each([6, 7])('when loanTerm is %p and the balloon is 0, then the step is accepted', (loanTerm) => {
    expect(
      expectOk(validateStepData('car', 2, { loanAmount: 20000, loanTerm, balloonPaymentPercent: '0' }))
        .balloonPaymentPercent,
    ).toBe(0);
  });

  test('when loanTerm is 7 and no balloon is sent, then the default 0 is stored', () => {
    expect(expectOk(validateStepData('car', 2, { loanAmount: 20000, loanTerm: 7 })).balloonPaymentPercent).toBe(0);
  });

  test.each([1, 5])('when loanTerm is %p, then a balloon is allowed', (loanTerm) => {
    expect(
      expectOk(validateStepData('car', 2, { loanAmount: 20000, loanTerm, balloonPaymentPercent: 30 }))
        .balloonPaymentPercent,
    ).toBe(30);
  });

  test('when loanTerm is 6 and the balloon is also out of range, then both violations are listed', () => {
    expect(
      expectError(validateStepData('car', 2, { loanAmount: 20000, loanTerm: 6, balloonPaymentPercent: 40 }))
        .details.map((d) => d.rule)
        .sort(),
    ).toEqual(['const', 'range']);
  });
});

describe('home step 1 first home buyer rule', () => {
  test.each(['new_property', 'construction'])(
    'when loanPurpose is %s and isFirstHomeBuyer is missing, then it is required',
    (loanPurpose) => {
      expect(
        expectError(validateStepData('home', 1, { occupancyType: 'owner_occupied', loanPurpose })).details,
      ).toEqual([
        {
          field: 'isFirstHomeBuyer',
          rule: 'required',
          message: 'isFirstHomeBuyer: is required when loanPurpose is new_property or construction',
        },
      ]);
    },
  );

  test.each(['new_property', 'construction'])(
    'when loanPurpose is %s and isFirstHomeBuyer is given, then the step is accepted',
    (loanPurpose) => {
      expectOk(validateStepData('home', 1, { occupancyType: 'owner_occupied', loanPurpose, isFirstHomeBuyer: 'no' }));
    },
  );

  test.each(['refinance', 'equity_release'])(
    'when loanPurpose is %s, then isFirstHomeBuyer is optional',
    (loanPurpose) => {
      expectOk(validateStepData('home', 1, { occupancyType: 'investment', loanPurpose }));
    },
  );
});
