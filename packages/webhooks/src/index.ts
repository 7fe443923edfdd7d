/**
 * The edge of webhooks: the address rules, signing, the HTTP attempt and the dispatcher loop. The rules
 * of delivery (what is due, retries, disabling) are the domain's (`webhook-delivery.ts`).
 */
export * from './addresses';
export * from './destination';
export * from './signature';
export * from './send';
export * from './dispatcher';
export * from './services';
