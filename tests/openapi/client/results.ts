/**
 * What the walk-through clients report, and how they are called: kept apart from the clients, which
 * import types generated at test time, so that the tests that run them need no generated file.
 */

export interface WalkthroughOptions {
  /** Where the partner API is reached: the document's server, or a proxy in front of it. */
  baseUrl: string;
  apiKey: string;
  fetch: (request: Request) => Promise<Response>;
}

export interface WalkthroughA {
  applicationId: string;
  replayed: string | null;
  /** Step 3's income as GET answers it: sent as the string "8000", stored as a number. */
  storedIncome: number | undefined;
  trackingUrl: string;
  referralsBefore: number;
  /** The error codes of the error cases, in order. */
  refusals: string[];
}

export interface WalkthroughB {
  applicationId: string;
  certainties: string[];
  missingFields: string[];
  /** The error codes of the error cases, in order. */
  refusals: string[];
}
