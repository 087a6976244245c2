/**
 * `FromSchema<S>`: the TypeScript type of values valid against a JSON Schema written `as const`.
 * Covers what tool parameters use: object/properties/required, string, number, integer, boolean, null,
 * array/items, enum, const, type arrays (`['string', 'null']`), anyOf/oneOf, and nesting.
 * Anything else reads as `unknown`, never as a wrong type.
 */
export type FromSchema<S> =
  S extends boolean ? unknown
    : S extends { const: infer C } ? C
      : S extends { enum: readonly (infer E)[] } ? E
        : S extends { anyOf: readonly (infer A)[] } ? FromSchema<A>
          : S extends { oneOf: readonly (infer O)[] } ? FromSchema<O>
            : S extends { type: readonly (infer T)[] } ? T extends string ? FromType<T, S> : never
              : S extends { type: infer T extends string } ? FromType<T, S>
                : unknown

type FromType<T extends string, S> =
  T extends 'string' ? string
    : T extends 'number' | 'integer' ? number
      : T extends 'boolean' ? boolean
        : T extends 'null' ? null
          : T extends 'array' ? FromArray<S>
            : T extends 'object' ? FromObject<S>
              : unknown

type FromArray<S> =
  S extends { items: readonly [...infer Tuple] } ? { [K in keyof Tuple]: FromSchema<Tuple[K]> }
    : S extends { items: infer I } ? FromSchema<I>[]
      : unknown[]

type RequiredKeys<S> = S extends { required: readonly (infer R)[] } ? R & string : never

type FromObject<S> =
  S extends { properties: infer P }
    ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromSchema<P[K]> }
      & { -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromSchema<P[K]> }
    >
    : Record<string, unknown>

type Simplify<T> = { [K in keyof T]: T[K] } & {}
