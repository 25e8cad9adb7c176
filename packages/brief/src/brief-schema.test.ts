import { describe, expect, it } from "vitest";
import { briefJsonSchema, briefRewriteJsonSchema, type JsonSchema } from "./brief-schema.js";

/** Every object schema inside, the root included. */
function objectSchemas(schema: unknown): JsonSchema[] {
  if (typeof schema !== "object" || schema === null) return [];
  const children = Object.values(schema).flatMap((value) =>
    Array.isArray(value) ? value.flatMap(objectSchemas) : objectSchemas(value),
  );
  const node = schema as JsonSchema;
  return node.type === "object" ? [node, ...children] : children;
}

describe.each([
  ["briefJsonSchema", briefJsonSchema],
  ["briefRewriteJsonSchema", briefRewriteJsonSchema],
])("%s (OpenAI strict mode)", (_name, jsonSchema) => {
  it("has additionalProperties false and every property required on every object", () => {
    const objects = objectSchemas(jsonSchema());

    expect(objects.length).toBeGreaterThanOrEqual(3);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect([...(object.required as string[])].sort()).toEqual(
        Object.keys(object.properties as object).sort(),
      );
    }
  });

  it("carries no $schema marker", () => {
    expect(jsonSchema()).not.toHaveProperty("$schema");
  });
});

describe("briefJsonSchema", () => {
  it("matches the snapshot", () => {
    expect(briefJsonSchema()).toMatchSnapshot();
  });

  it("differs from the rewrite schema only by supplementaryHeading", () => {
    const { properties, required, ...rest } = briefRewriteJsonSchema() as {
      properties: Record<string, unknown>;
      required: string[];
    };
    const { supplementaryHeading, ...briefProperties } = properties;

    expect(supplementaryHeading).toMatchObject({ type: "string" });
    expect({
      ...rest,
      properties: briefProperties,
      required: required.filter((key) => key !== "supplementaryHeading"),
    }).toEqual(briefJsonSchema());
  });
});

/**
 * The keywords every structured-output engine we meet converts faithfully: OpenAI's strict mode and the grammar
 * conversion of llama.cpp's server (which Ollama and LM Studio's GGUF engine share). Anything else is changed or
 * dropped by one of them without an error: a nullable field (`anyOf` with null, or `type: [..., "null"]`) becomes
 * null-only in llama.cpp's grammar, `pattern` and `format` are dropped or only partly kept, `minLength` /
 * `maxLength` are refused by OpenAI's strict mode, `$ref` / `$defs` resolve differently. The brief schema keeps
 * to this list, and this test fails the day it does not.
 */
const FAITHFUL_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "description",
  "enum",
]);
const FAITHFUL_TYPES = new Set(["object", "array", "string", "boolean", "integer", "number"]);

/** Every keyword used anywhere in the schema, with where; property names are not keywords. */
function keywordsOf(schema: unknown, path = "#"): { keyword: string; path: string; value: unknown }[] {
  if (typeof schema !== "object" || schema === null) return [];
  const found: { keyword: string; path: string; value: unknown }[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    found.push({ keyword, path, value });
    if (keyword === "properties" && typeof value === "object" && value !== null) {
      for (const [name, property] of Object.entries(value))
        found.push(...keywordsOf(property, `${path}/${name}`));
    } else if (keyword === "items") {
      found.push(...keywordsOf(value, `${path}/items`));
    } else if (Array.isArray(value)) {
      value.forEach((entry, index) => {
        found.push(...keywordsOf(entry, `${path}/${keyword}/${index}`));
      });
    } else if (typeof value === "object" && value !== null && keyword !== "enum") {
      found.push(...keywordsOf(value, `${path}/${keyword}`));
    }
  }
  return found;
}

describe.each([
  ["briefJsonSchema", briefJsonSchema],
  ["briefRewriteJsonSchema", briefRewriteJsonSchema],
])("%s (local servers' grammar conversion)", (_name, jsonSchema) => {
  it("uses only keywords that llama.cpp, Ollama, LM Studio and OpenAI's strict mode all keep as they are", () => {
    const unfaithful = keywordsOf(jsonSchema())
      .filter(({ keyword }) => !FAITHFUL_KEYWORDS.has(keyword))
      .map(({ keyword, path }) => `${keyword} at ${path}`);

    expect(unfaithful).toEqual([]);
  });

  it("gives every node one plain type: no nullable field, no union", () => {
    const types = keywordsOf(jsonSchema()).filter(({ keyword }) => keyword === "type");

    expect(types.length).toBeGreaterThan(5);
    for (const { value, path } of types) {
      expect(
        typeof value === "string" && FAITHFUL_TYPES.has(value),
        `type ${JSON.stringify(value)} at ${path}`,
      ).toBe(true);
    }
  });
});

describe("the grammar guard", () => {
  it("catches a nullable field, a pattern and a length limit", () => {
    const changed = {
      type: "object",
      properties: {
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
        id: { type: "string", pattern: "^[a-z]+$" },
        title: { type: ["string", "null"], maxLength: 80 },
      },
      required: ["note", "id", "title"],
      additionalProperties: false,
    };

    const unfaithful = keywordsOf(changed)
      .filter(({ keyword }) => !FAITHFUL_KEYWORDS.has(keyword))
      .map(({ keyword, path }) => `${keyword} at ${path}`);

    expect(unfaithful).toEqual(["anyOf at #/note", "pattern at #/id", "maxLength at #/title"]);
  });
});
