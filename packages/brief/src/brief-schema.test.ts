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
