import { z } from "zod";

/** A string the tracker may send as null or leave out: null then. */
export const nullableString = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** An id the tracker sends as `""` when there is none (`runtime_id`, `issue_id`): null then. */
export const optionalId = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null));

/** A number the tracker always sends but this client can live without. */
export const count = z
  .number()
  .nullish()
  .transform((value) => value ?? 0);
