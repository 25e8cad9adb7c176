/**
 * The signed form of a local request, for the hook (see the daemon's `http/local-proof/`): instead of the local key
 * the hook sends a proof made with it, and the daemon proves each answer the same way, so whatever listens on the
 * daemon's port learns nothing it can reuse and cannot answer for the daemon.
 *
 * Request header `Ringback-Request-Proof: v1.<timestamp ms>.<nonce>.<proof>`, where proof is the base64url
 * HMAC-SHA256, keyed with the local key (its UTF-8 text), of these lines joined with `\n`:
 * `LOCAL_PROOF_REQUEST_LABEL`, the method, the daemon's port, the path as sent (with its query), the timestamp, the
 * nonce, and the hex SHA-256 of the body.
 *
 * Answer header `Ringback-Answer-Proof: v1.<proof>`, the HMAC of `LOCAL_PROOF_ANSWER_LABEL`, the request's proof,
 * the status, and the hex SHA-256 of the answer's body.
 */
export const LOCAL_REQUEST_PROOF_HEADER = "ringback-request-proof";
export const LOCAL_ANSWER_PROOF_HEADER = "ringback-answer-proof";
/** The version prefix of both headers' values. */
export const LOCAL_PROOF_VERSION = "v1";
/** First line of what a request's proof covers: keeps it apart from an answer's and from any other use of the key. */
export const LOCAL_PROOF_REQUEST_LABEL = "ringback/local-proof/v1/request";
/** First line of what an answer's proof covers. */
export const LOCAL_PROOF_ANSWER_LABEL = "ringback/local-proof/v1/answer";
/** How far a signed request's time may be from the daemon's clock (one computer: only the time to send it). */
export const LOCAL_PROOF_WINDOW_MS = 30_000;
/** A nonce: 16 to 64 base64url characters (the hook sends 16 random bytes, 22 characters). */
export const LOCAL_PROOF_NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
