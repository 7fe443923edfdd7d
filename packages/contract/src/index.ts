export { ERROR_CODES, type DomainErrorCode, type ErrorCodeEntry, type ServiceErrorCode } from './error-codes';
