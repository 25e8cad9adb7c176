import { formatPairingLink, PairingLinkError } from "@ringback/client";
import { generateKey } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import { rejoinPlace } from "./rejoin-place.js";

const CODE = "123456789012";
const key = generateKey();

describe("where a new pairing link is joined", () => {
  it("here, when it opens this web app, whichever relay it names", () => {
    const link = formatPairingLink(
      { serverUrl: "https://relay.example", code: CODE, key },
      "http://127.0.0.1:8787",
    );
    expect(rejoinPlace(link, "http://127.0.0.1:8787/")).toBe("here");
    const app = formatPairingLink(
      { serverUrl: "https://relay.example", code: CODE, key },
      "https://app.example/rb",
    );
    expect(rejoinPlace(` ${app} `, "https://app.example/rb/index.html")).toBe("here");
  });

  it("there, when it opens the web app at another address (the LAN address after start --lan)", () => {
    const link = formatPairingLink({ serverUrl: "https://192.168.1.20:8787", code: CODE, key });
    expect(rejoinPlace(link, "http://127.0.0.1:8787/")).toBe("there");
    const otherPort = formatPairingLink({ serverUrl: "http://127.0.0.1:9000", code: CODE, key });
    expect(rejoinPlace(otherPort, "http://127.0.0.1:8787/")).toBe("there");
  });

  it("nowhere for a text that is not a pairing link: the link's own problem is said", () => {
    expect(() => rejoinPlace("http://127.0.0.1:8787/", "http://127.0.0.1:8787/")).toThrow(PairingLinkError);
    expect(() => rejoinPlace("http://127.0.0.1:8787/#pair=12&key=x", "http://127.0.0.1:8787/")).toThrow(
      expect.objectContaining({ problem: "invalid_code" }),
    );
  });
});
