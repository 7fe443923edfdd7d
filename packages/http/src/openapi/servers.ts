/**
 * The `servers` of a document, absolute and built from configuration: the listener's public address
 * (`PUBLIC_BASE_URL`, `PUBLIC_BASE_URL_B`) and the contract's base path, so that a validating proxy or a
 * code generator needs nothing but the document. The routes at the listener's root (health, the
 * reference, tracking links) name the root as their own server.
 */
import type { Schema } from './schemas';

export interface ServerOptions {
  /** The listener's public address, without the base path (`https://partners.example.com`). */
  publicUrl: string;
  /** The contract's base path on that listener (`/api/partner/v1`). */
  basePath: string;
  environment: 'sandbox' | 'live';
}

export interface Servers {
  api: Schema[];
  root: Schema[];
}

const ENVIRONMENT_WORDS = {
  sandbox: 'sandbox: credit checks are simulated',
  live: 'live (production)',
} as const;

export function documentServers(contract: string, options: ServerOptions): Servers {
  const url = new URL(options.publicUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`the public address of ${contract} must be http or https`);
  const root = options.publicUrl.replace(/\/+$/, '');
  const words = ENVIRONMENT_WORDS[options.environment];
  return {
    api: [{ url: `${root}${options.basePath}`, description: `${contract}, ${words}.`, 'x-internal': false }],
    root: [
      {
        url: root,
        description: `${contract}'s listener root, outside the versioned base path (${words}).`,
        'x-internal': false,
      },
    ],
  };
}
