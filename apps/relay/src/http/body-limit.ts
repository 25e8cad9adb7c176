import { errorBody } from "@ringback/protocol";
import { bodyLimit } from "hono/body-limit";

/** Refuses a body over `maxBytes` with 413 `payload_too_large`, before it is read whole. */
export function limitBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => c.json(errorBody("payload_too_large", `The body is over ${maxBytes} bytes.`), 413),
  });
}
