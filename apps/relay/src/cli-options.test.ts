import { homedir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RELAY_PORT } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { parseRelayCliOptions, RelayUsageError } from "./cli-options.js";

describe("relay command-line options", () => {
  it("defaults to 127.0.0.1:8787 with data in ~/.ringback-relay and a claim code", () => {
    const options = parseRelayCliOptions([], {});
    expect(options).toMatchObject({ host: "127.0.0.1", port: DEFAULT_RELAY_PORT, isHelp: false });
    expect(options.dataDir).toBe(join(homedir(), ".ringback-relay"));
    expect(options.databaseUrl).toBeNull();
    expect(options.config).toEqual({ openSignup: false, behindProxy: false, webRoot: null });
  });

  it("reads the environment, and flags win over it", () => {
    const env = {
      RINGBACK_RELAY_HOST: "0.0.0.0",
      RINGBACK_RELAY_PORT: "9000",
      RINGBACK_RELAY_DATA: "/srv/relay",
      RINGBACK_RELAY_OPEN_SIGNUP: "1",
      RINGBACK_RELAY_BEHIND_PROXY: "true",
      RINGBACK_RELAY_CALL_EXPIRY_MS: "60000",
    };
    expect(parseRelayCliOptions([], env)).toMatchObject({
      host: "0.0.0.0",
      port: 9000,
      dataDir: "/srv/relay",
      config: { openSignup: true, behindProxy: true, callExpiryMs: 60000 },
    });
    expect(parseRelayCliOptions(["--port", "0", "--host", "::1"], env)).toMatchObject({
      host: "::1",
      port: 0,
    });
  });

  it("takes a PostgreSQL URL from --database or RINGBACK_RELAY_DATABASE, and nothing else", () => {
    const env = { RINGBACK_RELAY_DATABASE: "postgres://relay@db.internal/ringback" };
    expect(parseRelayCliOptions([], env).databaseUrl).toBe("postgres://relay@db.internal/ringback");
    expect(parseRelayCliOptions(["--database", "postgresql://other/x"], env).databaseUrl).toBe(
      "postgresql://other/x",
    );
    expect(() => parseRelayCliOptions(["--database", "mysql://u:secret@h/x"], {})).toThrow(
      /^--database must be a postgres:\/\/ URL\.$/,
    );
  });

  it("refuses a bad port, a bad duration, an unknown flag and a missing web root", () => {
    expect(() => parseRelayCliOptions(["--port", "70000"], {})).toThrow(RelayUsageError);
    expect(() => parseRelayCliOptions(["--heartbeat-ms", "soon"], {})).toThrow(RelayUsageError);
    expect(() => parseRelayCliOptions(["--nope"], {})).toThrow();
    expect(() => parseRelayCliOptions(["--web-root", "/definitely/not/here"], {})).toThrow(RelayUsageError);
  });

  it("takes a mailto: or https: Web Push contact and refuses anything else", () => {
    expect(parseRelayCliOptions(["--push-subject", "mailto:ops@relay.example"], {}).config.pushSubject).toBe(
      "mailto:ops@relay.example",
    );
    const fromEnv = parseRelayCliOptions([], {
      RINGBACK_RELAY_PUSH_SUBJECT: "https://relay.example/contact",
    });
    expect(fromEnv.config.pushSubject).toBe("https://relay.example/contact");
    expect(() => parseRelayCliOptions(["--push-subject", "http://relay.example"], {})).toThrow(
      RelayUsageError,
    );
  });

  it("takes the account and stream limits from flags or the environment", () => {
    const options = parseRelayCliOptions(["--devices-per-account", "50", "--streams-per-address", "20000"], {
      RINGBACK_RELAY_PAIRINGS_PER_ACCOUNT: "30",
      RINGBACK_RELAY_STREAMS_PER_ACCOUNT: "100",
      RINGBACK_RELAY_SIGNUPS_PER_ADDRESS: "500",
    });
    expect(options.config).toMatchObject({
      devicesPerAccountMax: 50,
      pairingsPerAccountMax: 30,
      streamsPerAccountMax: 100,
      streamsPerAddressMax: 20000,
      signupsPerAddressMax: 500,
    });
    expect(parseRelayCliOptions([], {}).config.devicesPerAccountMax).toBeUndefined();
    expect(() => parseRelayCliOptions(["--devices-per-account", "0"], {})).toThrow(RelayUsageError);
  });

  it("takes the origins the web app may also connect to from --web-connect-origins", () => {
    expect(
      parseRelayCliOptions(["--web-connect-origins", "https://api.openai.com, http://127.0.0.1:11434"], {})
        .config.webConnectOrigins,
    ).toEqual(["https://api.openai.com", "http://127.0.0.1:11434"]);
    expect(
      parseRelayCliOptions([], { RINGBACK_RELAY_WEB_CONNECT_ORIGINS: "https://speech.example" }).config
        .webConnectOrigins,
    ).toEqual(["https://speech.example"]);
    expect(parseRelayCliOptions([], {}).config.webConnectOrigins).toBeUndefined();
    for (const bad of [
      "http://model.example",
      "https://a.example/v1",
      "*",
      "https://a.example; script-src *",
    ]) {
      expect(() => parseRelayCliOptions(["--web-connect-origins", bad], {})).toThrow(RelayUsageError);
    }
  });

  it("takes the push services devices may subscribe at from --push-hosts or RINGBACK_RELAY_PUSH_HOSTS", () => {
    expect(
      parseRelayCliOptions(["--push-hosts", "Push.Example, fcm.googleapis.com"], {}).config.pushHosts,
    ).toEqual(["push.example", "fcm.googleapis.com"]);
    expect(parseRelayCliOptions([], { RINGBACK_RELAY_PUSH_HOSTS: "push.test" }).config.pushHosts).toEqual([
      "push.test",
    ]);
    expect(parseRelayCliOptions([], {}).config.pushHosts).toBeUndefined();
    for (const bad of ["", " , ", "https://push.example", "push.example/path", "127.0.0.1", "[::1]"]) {
      expect(() => parseRelayCliOptions(["--push-hosts", bad], {})).toThrow(RelayUsageError);
    }
  });

  it("takes the push services trusted at any port and address from --push-trusted-origins only", () => {
    expect(
      parseRelayCliOptions(["--push-trusted-origins", "https://127.0.0.1:8443, https://push.lan"], {}).config
        .pushTrustedOrigins,
    ).toEqual(["https://127.0.0.1:8443", "https://push.lan"]);
    expect(
      parseRelayCliOptions([], { RINGBACK_RELAY_PUSH_TRUSTED_ORIGINS: "https://[::1]:9000" }).config
        .pushTrustedOrigins,
    ).toEqual(["https://[::1]:9000"]);
    expect(parseRelayCliOptions([], {}).config.pushTrustedOrigins).toBeUndefined();
    for (const bad of [
      "http://127.0.0.1:8443",
      "https://push.lan/path",
      "push.lan",
      "https://u:p@push.lan",
    ]) {
      expect(() => parseRelayCliOptions(["--push-trusted-origins", bad], {})).toThrow(RelayUsageError);
    }
  });

  it("takes a public address as an https origin (http only on loopback), from --public-url or the environment", () => {
    expect(parseRelayCliOptions(["--public-url", "https://Ring.Example.com/"], {}).config.publicUrl).toBe(
      "https://ring.example.com",
    );
    expect(
      parseRelayCliOptions([], { RINGBACK_RELAY_PUBLIC_URL: "https://10.0.0.7:8443" }).config.publicUrl,
    ).toBe("https://10.0.0.7:8443");
    expect(parseRelayCliOptions(["--public-url", "http://localhost:8787"], {}).config.publicUrl).toBe(
      "http://localhost:8787",
    );
    expect(() => parseRelayCliOptions(["--public-url", "http://192.168.1.5:8787"], {})).toThrow(
      /must be https:\/\//,
    );
    expect(() => parseRelayCliOptions(["--public-url", "https://ring.example.com/app"], {})).toThrow(
      /origin only, such as https:\/\/ring\.example\.com/,
    );
    expect(() => parseRelayCliOptions(["--public-url", "ring.example.com"], {})).toThrow(RelayUsageError);
  });

  it("serves the web app inside the package unless --no-web (or RINGBACK_RELAY_NO_WEB) says none", () => {
    expect(parseRelayCliOptions([], {}).isWebless).toBe(false);
    expect(parseRelayCliOptions(["--no-web"], {}).isWebless).toBe(true);
    expect(parseRelayCliOptions([], { RINGBACK_RELAY_NO_WEB: "1" }).isWebless).toBe(true);
  });
});
