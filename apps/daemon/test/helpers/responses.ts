import { ErrorBody } from "@ringback/protocol";

/** The `error.code` of an error envelope (fails the test when the body is not one). */
export async function errorCode(response: Response): Promise<string> {
  return ErrorBody.parse(await response.json()).error.code;
}
