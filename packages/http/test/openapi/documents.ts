/** The options the documents are built with in these tests: as a listener reached at a public https address serves them. */
export const SERVED_A = {
  basePath: '/api/partner/v1',
  publicUrl: 'https://partners.example.test',
  environment: 'sandbox',
} as const;
export const SERVED_B = {
  basePath: '/v1',
  publicUrl: 'https://partners-b.example.test',
  environment: 'sandbox',
} as const;
