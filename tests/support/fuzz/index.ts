/**
 * Property-based fuzzing of the listeners: generators of hostile bodies, headers, paths and ids, a
 * sender that puts them on the wire exactly, and the checks that every answer and the database must
 * pass whatever was sent. Each app's `test/fuzz.test.ts` describes its contract for `runFuzzSuite`
 * (fuzz/suite.ts, imported from there: it opens its database through this package's index).
 */
export { hostileJson, hostileKey, hostileNumber, hostileString, unicodeEdge } from './values';
export { bodyAround, mutatedBody, rawBody, textEdgeBody } from './bodies';
export { authorizationHeader, headerValue, idempotencyKeyHeader, requestIdHeader, sandboxScoreHeader } from './headers';
export { encodeURIComponentLoosely, hostileQuery, pathId, strayRequests } from './paths';
export { describeRequest, sendFuzzRequest, type FuzzRequest, type FuzzResponse, type RawBody } from './request';
export { PROTOTYPE_KEYS, checkAnswer, checkPrototypes, prototypeSnapshot, type AnswerExpectations } from './answers';
export { applicationSnapshot, storedProblems } from './stored';
export { assertFuzz, fuzzParameters } from './property';
