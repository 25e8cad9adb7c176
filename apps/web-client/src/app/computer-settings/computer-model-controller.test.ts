import { generateKey } from "@ringback/e2e-crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SettingsBackedState, settingsBackedDaemon } from "../../../test/settings-backed-daemon.js";
import { type StandInComputer, startStandInComputer } from "../../../test/stand-in-computer.js";
import { DaemonClient } from "../daemon/daemon-client.js";
import { RelayClient } from "../relay/relay-client.js";
import { ComputerModelController } from "./computer-model-controller.js";
import { computerModelForm } from "./computer-model-form.js";

const key = generateKey();
const SECRET = "sk-computer-secret-1234";

describe("Settings › Language model for briefs, relayed to a stand-in computer", () => {
  let computer: StandInComputer;
  let state: SettingsBackedState;
  let controller: ComputerModelController;

  beforeAll(async () => {
    const backed = settingsBackedDaemon({ trackerUrl: "http://127.0.0.1:9" });
    state = backed.state;
    computer = await startStandInComputer(key, backed.daemon);
  });

  afterAll(async () => {
    await computer?.close();
  });

  beforeEach(() => {
    state.llm = null;
    computer.requests.length = 0;
    computer.relayRefuses(null);
    const client = new DaemonClient(
      new RelayClient({ serverUrl: computer.origin, deviceToken: "tok" }),
      key,
      "dev_pc",
    );
    controller = new ComputerModelController(async () => client);
  });

  const form = {
    baseUrl: " https://models.example/v1 ",
    model: " brief-model ",
    apiKey: "",
    structuredOutput: "json_schema" as const,
  };

  it("saves the channel with its key once; afterwards only the key's hint comes back", async () => {
    await controller.load();
    expect(controller.view).toMatchObject({ isLoaded: true, channel: null });
    expect(await controller.save({ ...form, apiKey: SECRET, structuredOutput: "json_object" })).toBe(true);
    expect(computer.requests.at(-1)).toEqual({
      method: "PUT",
      path: "/llm/settings",
      body: {
        baseUrl: "https://models.example/v1",
        model: "brief-model",
        apiKey: SECRET,
        structuredOutput: "json_object",
      },
    });
    expect(controller.view.channel).toEqual({
      baseUrl: "https://models.example/v1",
      model: "brief-model",
      keyHint: "****1234",
      structuredOutput: "json_object",
    });
    expect(controller.view.notice).toBe("saved");
    expect(JSON.stringify(controller.view)).not.toContain(SECRET);
    // The form opens again without the key.
    expect(computerModelForm(controller.view.channel).apiKey).toBe("");
  });

  it("keeps the saved key when the key field is left empty", async () => {
    state.llm = {
      baseUrl: "https://old.example/v1",
      model: "old",
      apiKey: SECRET,
      structuredOutput: "json_schema",
    };
    await controller.load();
    expect(await controller.save({ ...form, model: "newer" })).toBe(true);
    expect(computer.requests.at(-1)?.body).not.toHaveProperty("apiKey");
    expect(state.llm).toMatchObject({ model: "newer", apiKey: SECRET });
  });

  it("asks for a key on the first save without asking the computer", async () => {
    await controller.load();
    expect(await controller.save(form)).toBe(false);
    expect(controller.view.problem?.kind).toBe("llm-key-required");
    expect(computer.requests.map((request) => request.method)).toEqual(["GET"]);
  });

  it("refuses an address that is not http(s) and an empty model", async () => {
    await controller.load();
    await controller.save({ ...form, baseUrl: "ftp://models.example", apiKey: SECRET });
    expect(controller.view.problem?.kind).toBe("model-address");
    await controller.save({ ...form, model: " ", apiKey: SECRET });
    expect(controller.view.problem?.kind).toBe("model-incomplete");
  });

  it("removes the channel", async () => {
    state.llm = {
      baseUrl: "https://old.example/v1",
      model: "old",
      apiKey: SECRET,
      structuredOutput: "json_schema",
    };
    await controller.load();
    expect(await controller.remove()).toBe(true);
    expect(controller.view).toMatchObject({ channel: null, notice: "removed" });
    expect(state.llm).toBeNull();
  });

  it("says the computer is offline", async () => {
    computer.relayRefuses("computer_offline");
    await controller.load();
    expect(controller.view).toMatchObject({ isLoaded: false, busy: null });
    expect(controller.view.problem?.kind).toBe("computer-offline");
  });
});
