import fc from "fast-check";

/** A request body as it goes on the wire: text, or raw bytes (invalid UTF-8 included). */
export type WireBody = string | Uint8Array;

/** Strings that break naive code: lone surrogates, NUL, right-to-left override, emoji, zero-width, long runs. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\ud800",
    "\udfff",
    "a\u0000b",
    "\u202egnp.exe",
    "👩‍👩‍👧‍👦",
    "\u200b\u200d\ufeff",
    "../../etc/passwd",
    "%00%2e%2e%2f",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "$" + "{jndi:ldap://x}",
    "__proto__",
    "constructor",
    "NaN",
    "-0",
    "1e309",
  ),
  fc.string({ unit: "binary", maxLength: 64 }),
  fc.string({ unit: "grapheme", maxLength: 64 }),
);

/** Values of every JSON type and some that are not JSON at all once stringified (undefined, NaN, huge numbers). */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nastyString,
  fc.constantFrom(null, true, false, 0, -1, 2 ** 53, Number.MAX_VALUE, [], {}),
);

/** An object with the route's own field names (so validation is reached) holding values of the wrong types. */
export function wrongTypedBody(fields: readonly string[]): fc.Arbitrary<WireBody> {
  if (fields.length === 0)
    return fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? "null");
  return fc
    .dictionary(fc.constantFrom(...fields, "__proto__", "constructor", "extra"), anyValue, {
      maxKeys: fields.length + 2,
    })
    .map((object) => JSON.stringify(object) ?? "{}");
}

/** The known nasty shapes: deep nesting, huge strings, duplicate keys, truncated JSON, invalid UTF-8, not JSON. */
export function nastyBody(fields: readonly string[]): fc.Arbitrary<WireBody> {
  const field = fields[0] ?? "field";
  return fc.oneof(
    fc.integer({ min: 100, max: 200_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
    fc.integer({ min: 100, max: 50_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
    fc
      .integer({ min: 10_000, max: 3_000_000 })
      .map((length) => JSON.stringify({ [field]: "x".repeat(length) })),
    fc
      .tuple(anyValue, anyValue)
      .map(
        ([first, second]) =>
          `{"${field}":${JSON.stringify(first) ?? 1},"${field}":${JSON.stringify(second) ?? 2}}`,
      ),
    fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat()).map(([value, cut]) => {
      const text = JSON.stringify({ [field]: value });
      return text.slice(0, cut % Math.max(text.length, 1));
    }),
    fc.constantFrom(
      Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d),
      Uint8Array.of(0xff, 0xfe, 0x00, 0x7b),
      Uint8Array.of(0xed, 0xa0, 0x80),
    ),
    fc.constantFrom("", " ", "null", "[]", "0", '"text"', "{", "}", "undefined", "NaN", "{'a':1}", "\u0000"),
    nastyString.map((text) => JSON.stringify({ [field]: text })),
  );
}
