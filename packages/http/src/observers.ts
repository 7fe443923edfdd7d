/**
 * What the listeners report about their requests (`packages/metrics` implements it with prom-client).
 * Labels are the contract, the route template and the status: never a raw URL, an id or a key.
 */
export interface HttpMetrics {
  /** The observer of one listener's requests; asked once, when the listener is built. */
  requests(contract: string): RequestObserver;
  /** A request refused by a rate limiter (`a`, `b`), with the partner's tier where the limit is a tier's. */
  rateLimited(limiter: string, tier?: string): void;
}

export interface RequestObserver {
  observe(route: string, status: number, seconds: number): void;
}

/** The Prometheus text of this process's metrics. */
export interface MetricsSource {
  readonly contentType: string;
  render(): Promise<string>;
}
