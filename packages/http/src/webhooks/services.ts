import { WEBHOOK_SECRET_PURPOSE, createSecretBox, type Environment, type WebhookServices } from '@loanmatch/domain';
import { createDestinationPolicy, type DestinationPolicy, type LookupAll, type LoopbackPorts } from './destination';

export interface WebhookServicesOptions {
  env: Environment;
  /**
   * Server secrets from which the key that seals signing secrets is derived (HKDF-SHA256, then
   * AES-256-GCM: the domain's SecretBox), newest first; older ones still open what they sealed.
   */
  sealingSecrets: readonly string[];
  /** Name resolution for the destination rules (tests inject one). */
  lookup?: LookupAll;
  /** The sandbox's loopback ports (WEBHOOK_SANDBOX_LOOPBACK_PORTS); any by default. */
  sandboxLoopbackPorts?: LoopbackPorts;
  /** Called when an event was written: wake this process's dispatcher. */
  notify?: () => void;
}

/** What the domain's webhook use cases need: sealing, the destination rules, the dispatcher's nudge. */
export function createWebhookServices(
  options: WebhookServicesOptions,
): WebhookServices & { destinations: DestinationPolicy } {
  const destinations = createDestinationPolicy({
    env: options.env,
    lookup: options.lookup,
    sandboxLoopbackPorts: options.sandboxLoopbackPorts,
  });
  const notify = options.notify ?? (() => undefined);
  return {
    secrets: createSecretBox(options.sealingSecrets, WEBHOOK_SECRET_PURPOSE),
    destinations,
    checkDestination: (url) => destinations.check(url),
    notify: () => notify(),
  };
}
