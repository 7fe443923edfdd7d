/** Compile-time helpers for the client's type tests: type equality, and name lists the compiler checks against a type. */

export type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
/** Keys without an index signature (the service's views extend `Record<string, unknown>`). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
export type SameKeys<A, B> = Equal<KnownKeys<A>, KnownKeys<B>>;
// biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<T, K>` is how a key is told optional.
export type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** Names listed once: a name `T` lacks, or one of `T`'s left out, fails the typecheck. */
export const fieldsOf = <T>(names: Record<keyof T, true>) => Object.keys(names).sort();
export const requiredOf = <T>(names: Record<RequiredKeys<T>, true>) => Object.keys(names).sort();
export const valuesOf = <U extends string>(values: Record<U, true>) => Object.keys(values).sort();
