/** Who the same applicant is: e-mail and mobile number normalised, then hashed under the server's key. */
import { randomBytes } from 'node:crypto';
import { createApplicantHasher, normaliseEmail, normaliseMobile } from '../src/ownership';

describe('the applicant as lead ownership compares it', () => {
  it.each([
    ['0412 345 678', '+61412345678'],
    ['+61412345678', '+61412345678'],
    ['+61 412 345 678', '+61412345678'],
    ['61412345678', '+61412345678'],
    ['+61 (0)412 345 678', '+61412345678'],
    ['0061 412 345 678', '+61412345678'],
    ['(02) 9876-5432', '+61298765432'],
    ['+44 7911 123456', '+447911123456'],
    ['call me later', null],
    ['0412 345 67', null],
    ['12345678', null],
  ])('when the number is %p, then it is compared as %p', (given, expected) => {
    expect(normaliseMobile(given)).toBe(expected);
  });

  it.each([
    ['  Jordan.Citizen@Example.COM ', 'jordan.citizen@example.com'],
    ['jordan@example.com', 'jordan@example.com'],
    ['not an address', null],
    [42, null],
  ])('when the e-mail is %p, then it is compared as %p', (given, expected) => {
    expect(normaliseEmail(given)).toBe(expected);
  });

  it('when two applicants write the same e-mail and number differently, then their hashes are the same, and hold neither value', () => {
    const hashes = createApplicantHasher(randomBytes(32));
    const a = hashes({ email: 'jordan.citizen@example.com', mobileNumber: '0412 345 678' });
    const b = hashes({ email: ' JORDAN.CITIZEN@example.com', mobileNumber: '+61412345678' });
    expect(a).toEqual(b);
    expect(a.emailHash).toMatch(/^h1\.[A-Za-z0-9_-]{10}\.[A-Za-z0-9_-]{43}$/);
    expect(a.mobileHash).not.toBe(a.emailHash);
    expect(JSON.stringify(a)).not.toMatch(/jordan|412345678/i);
  });

  it('when a value does not normalise or is missing, then it has no hash; under another key, the hashes differ', () => {
    const hashes = createApplicantHasher(randomBytes(32));
    expect(hashes({ email: 'jordan@example.com', mobileNumber: 'call me later' }).mobileHash).toBeNull();
    expect(hashes({ firstName: 'Jordan' })).toEqual({ emailHash: null, mobileHash: null });
    const details = { email: 'jordan@example.com', mobileNumber: '0412345678' };
    expect(createApplicantHasher(randomBytes(32))(details)).not.toEqual(hashes(details));
  });
});
