/**
 * Seal/open throughput and passphrase derivation time of the built package (WebCrypto), next to the same
 * operations written with Node's own node:crypto in the same run. Prints one table (also its section of
 * BENCHMARKS.md); takes about 12 s.
 *
 *   pnpm --filter @ringback/e2e-crypto bench
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes, scryptSync } from "node:crypto";
import { cpus } from "node:os";
import { pathToFileURL } from "node:url";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { DIST_ENTRY, ensureDist } from "../scripts/ensure-dist.ts";
import type { E2eLibrary } from "../test/vector-checks.ts";

/** Each throughput figure runs this long after a short warm-up. */
const MEASURE_MS = 1_000;
const WARM_UP_MS = 200;
const ROUNDS = 4;
/** The goal: opening a 64 KB report at least this fast against node:crypto's. */
const OPEN_64_KB_GOAL = 0.8;
const PBKDF2_RUNS = 3;
const PAYLOADS = [
  { label: "1 KB", bytes: 1024 },
  { label: "64 KB", bytes: 64 * 1024 },
];

ensureDist();
const e2e = (await import(pathToFileURL(DIST_ENTRY).href)) as E2eLibrary;

const key = e2e.generateKey();
const rawKey = Buffer.from(e2e.keyBytes(key));
const keyIdHex = await e2e.keyId(key);
const reportAad = e2e.aad.report("bench-event");

/** The same format with node:crypto, as a daemon without this package would write it. */
function nodeSeal(plaintext: string): string {
  const iv = randomBytes(e2e.IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", rawKey, iv);
  cipher.setAAD(Buffer.from(reportAad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `e2e1.${keyIdHex}.${iv.toString("base64url")}.${body.toString("base64url")}`;
}

function nodeOpen(sealed: string): string {
  const [, , ivText = "", bodyText = ""] = sealed.split(".");
  const body = Buffer.from(bodyText, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", rawKey, Buffer.from(ivText, "base64url"));
  decipher.setAAD(Buffer.from(reportAad, "utf8"));
  decipher.setAuthTag(body.subarray(-e2e.TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, -e2e.TAG_BYTES)), decipher.final()]).toString(
    "utf8",
  );
}

/** Operations per second of one operation run back to back for `ms`. */
async function opsPerSecond(operation: () => unknown, ms: number): Promise<number> {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let batch = 0; batch < 8; batch++) await operation();
    count += 8;
    elapsed = performance.now() - start;
  }
  return (count * 1000) / elapsed;
}

/**
 * Ours and node:crypto's operations per second, taking turns for `ROUNDS` rounds after a warm-up of each, the best
 * round of each counting: both see the same machine, even one busy with other work.
 */
async function againstNode(
  ours: () => unknown,
  node: () => unknown,
): Promise<{ ours: number; node: number }> {
  await opsPerSecond(ours, WARM_UP_MS);
  await opsPerSecond(node, WARM_UP_MS);
  let best = { ours: 0, node: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const oursRate = await opsPerSecond(ours, MEASURE_MS / ROUNDS);
    const nodeRate = await opsPerSecond(node, MEASURE_MS / ROUNDS);
    best = { ours: Math.max(best.ours, oursRate), node: Math.max(best.node, nodeRate) };
  }
  return best;
}

async function medianMs(operation: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < PBKDF2_RUNS; run++) {
    const start = performance.now();
    await operation();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

interface Row {
  operation: string;
  ours: string;
  oursRate: string;
  node: string;
  nodeRate: string;
  ratio: string;
  goal: string;
  met: string;
}

const rows: Row[] = [];
const megabytesPerSecond = (ops: number, bytes: number) => `${((ops * bytes) / 1e6).toFixed(1)} MB/s`;
const perSecond = (ops: number) => `${Math.round(ops).toLocaleString("en-US")} ops/s`;

for (const payload of PAYLOADS) {
  const plaintext = "r".repeat(payload.bytes);
  const oursSealed = await e2e.sealString(key, reportAad, plaintext);
  const nodeSealed = nodeSeal(plaintext);
  // Both sides must speak the same format, or the comparison means nothing.
  if (
    nodeOpen(oursSealed) !== plaintext ||
    (await e2e.openString(key, reportAad, nodeSealed)) !== plaintext
  ) {
    throw new Error("node:crypto and @ringback/e2e-crypto disagree on the format");
  }
  const measured = [
    {
      operation: `seal ${payload.label}`,
      goal: null,
      ...(await againstNode(
        () => e2e.sealString(key, reportAad, plaintext),
        () => nodeSeal(plaintext),
      )),
    },
    {
      operation: `open ${payload.label}`,
      goal: payload.bytes === 64 * 1024 ? OPEN_64_KB_GOAL : null,
      ...(await againstNode(
        () => e2e.openString(key, reportAad, oursSealed),
        () => nodeOpen(nodeSealed),
      )),
    },
  ];
  for (const { operation, ours, node, goal } of measured) {
    rows.push({
      operation,
      ours: megabytesPerSecond(ours, payload.bytes),
      oursRate: perSecond(ours),
      node: megabytesPerSecond(node, payload.bytes),
      nodeRate: perSecond(node),
      ratio: `${(ours / node).toFixed(2)}x throughput`,
      goal: goal === null ? "" : `>= ${goal}x throughput`,
      met: goal === null ? "" : ours >= goal * node ? "met" : "missed",
    });
  }
}

const phrase = "correct horse battery staple";
const oursPbkdf2 = await medianMs(() => e2e.deriveKeyFromPassphraseV1(phrase));
const nodePbkdf2 = await medianMs(() =>
  pbkdf2Sync(phrase.normalize("NFC"), e2e.PASSPHRASE_SALT, e2e.PBKDF2_ITERATIONS, e2e.KEY_BYTES, "sha256"),
);
rows.push({
  operation: `PBKDF2-SHA256 ${e2e.PBKDF2_ITERATIONS} it.`,
  ours: `${oursPbkdf2.toFixed(0)} ms`,
  oursRate: `median of ${PBKDF2_RUNS}`,
  node: `${nodePbkdf2.toFixed(0)} ms`,
  nodeRate: `median of ${PBKDF2_RUNS}`,
  ratio: `${(oursPbkdf2 / nodePbkdf2).toFixed(2)}x time`,
  goal: "",
  met: "",
});

// Version 2: scrypt salted with the account id (what new passphrase keys use); node:crypto's scryptSync is the baseline.
const accountId = "acc_bench";
const oursScrypt = await medianMs(() => e2e.deriveKeyFromPassphrase(phrase, accountId));
const nodeScrypt = await medianMs(() =>
  scryptSync(phrase.normalize("NFC"), `${e2e.PASSPHRASE_V2_SALT_PREFIX}${accountId}`, e2e.KEY_BYTES, {
    N: e2e.SCRYPT_COST,
    r: e2e.SCRYPT_BLOCK_SIZE,
    p: e2e.SCRYPT_PARALLELISM,
    maxmem: 256 * 1024 * 1024,
  }),
);
rows.push({
  operation: `scrypt N=${e2e.SCRYPT_COST} r=${e2e.SCRYPT_BLOCK_SIZE} p=${e2e.SCRYPT_PARALLELISM}`,
  ours: `${oursScrypt.toFixed(0)} ms`,
  oursRate: `median of ${PBKDF2_RUNS}`,
  node: `${nodeScrypt.toFixed(0)} ms`,
  nodeRate: `median of ${PBKDF2_RUNS}`,
  ratio: `${(oursScrypt / nodeScrypt).toFixed(2)}x time`,
  goal: "",
  met: "",
});

const report = new BenchReport(
  "@ringback/e2e-crypto seal-open",
  "@ringback/e2e-crypto: seal, open and passphrase keys",
);
report.line(`@ringback/e2e-crypto bench: Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"}`);
report.line(
  `seal/open: one call at a time, payload of ASCII text, output in the e2e1 string format on both sides; ours and ` +
    `node:crypto take turns (${ROUNDS} rounds, the best of each)`,
);
report.line();
report.table(
  ["operation", "ours", "ours rate", "node:crypto", "node:crypto rate", "ours / node:crypto", "goal", "met"],
  rows.map((row) => [
    row.operation,
    row.ours,
    row.oursRate,
    row.node,
    row.nodeRate,
    row.ratio,
    row.goal,
    row.met,
  ]),
);
await report.save();
