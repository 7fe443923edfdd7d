import type { PrismaClient } from '../generated/client';
import type { TransactionClient } from '../generated/internal/prismaNamespace';

/** Either the client or the handle of an open transaction: repositories work with both. */
export type Queryable = PrismaClient | TransactionClient;
export type Json = Record<string, unknown>;

/** True for PostgreSQL's unique-violation, as Prisma reports it. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'P2002';
}
