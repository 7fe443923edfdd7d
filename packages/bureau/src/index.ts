export {
  createLiveBureau,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_OPEN_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_BODY_BYTES,
  SOFT_ENQUIRY_PATH,
  type BureauEvent,
  type BureauEventType,
  type LiveBureau,
  type LiveBureauOptions,
} from './live-bureau';
export type { BreakerState } from './breaker';
