import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type MetadataValue, Q8_0_BLOCK_BYTES, type TensorSpec, TensorType, writeGguf } from "./gguf.ts";

/**
 * Qwen3-0.6B's shape (its config.json: 28 layers, hidden 1024, 16 query heads and 8 key/value heads of 128, FFN
 * 3072, vocabulary 151,936, RoPE theta 1e6, RMS norm epsilon 1e-6, tied embeddings, q/k norms) with random
 * weights at Q8_0, and Qwen3's real tokenizer: llama.cpp does the same work per token as for the real model, so
 * the speeds are the real model's; only what it writes is noise.
 */
const QWEN3_0_6B = {
  layers: 28,
  hidden: 1024,
  heads: 16,
  kvHeads: 8,
  headDim: 128,
  ffn: 3072,
  vocab: 151_936,
  trainedContext: 40_960,
  ropeTheta: 1_000_000,
  rmsNormEps: 1e-6,
  bosTokenId: 151_643,
  eosTokenId: 151_645,
  padTokenId: 151_643,
} as const;

/** The weights' standard deviation: Qwen3's initializer_range. Small enough that no activation overflows. */
const WEIGHT_STD = 0.02;
/** The standard deviation of an int8 drawn uniformly from [-128, 127]. */
const UNIFORM_INT8_STD = 73.9;

// llama.cpp's token types (convert_hf_to_gguf.py: a tokenizer.json token is normal, an added special one or one
// that looks like <|...|> is control, another added one user-defined, an id past the tokenizer's is padding).
const NORMAL = 1;
const CONTROL = 3;
const USER_DEFINED = 4;
const UNUSED = 5;

interface TokenizerJson {
  model: { vocab: Record<string, number>; merges: (string | [string, string])[] };
  added_tokens: { id: number; content: string; special: boolean }[];
}

/** The f16 bits of a positive normal number (enough for a scale). */
function halfBits(value: number): number {
  const exponent = Math.floor(Math.log2(value));
  const mantissa = Math.round((value / 2 ** exponent - 1) * 1024);
  return ((exponent + 15) << 10) | mantissa;
}

/** A seeded xorshift32: the same weights on every machine, so two runs sample the same way. */
function randomFiller(seed: number, scaleBits: number): TensorSpec["fill"] {
  let state = seed >>> 0 || 1;
  return (chunk) => {
    const words = new Uint32Array(chunk.buffer, chunk.byteOffset, Math.floor(chunk.length / 4));
    for (let index = 0; index < words.length; index++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[index] = state >>> 0;
    }
    for (let index = words.length * 4; index < chunk.length; index++) chunk[index] = index & 0xff;
    // Each block starts with its f16 scale; the 32 random bytes after it are the int8 weights.
    for (let block = 0; block < chunk.length; block += Q8_0_BLOCK_BYTES)
      chunk.writeUInt16LE(scaleBits, block);
  };
}

const ones: TensorSpec["fill"] = (chunk) => {
  for (let offset = 0; offset < chunk.length; offset += 4) chunk.writeFloatLE(1, offset);
};

function tensors(): TensorSpec[] {
  const shape = QWEN3_0_6B;
  const scaleBits = halfBits(WEIGHT_STD / UNIFORM_INT8_STD);
  let seed = 0x5eed;
  const random = (name: string, dims: number[]): TensorSpec => ({
    name,
    dims,
    type: TensorType.Q8_0,
    fill: randomFiller(seed++, scaleBits),
  });
  const norm = (name: string, size: number): TensorSpec => ({
    name,
    dims: [size],
    type: TensorType.F32,
    fill: ones,
  });
  const list = [random("token_embd.weight", [shape.hidden, shape.vocab])];
  const qWidth = shape.heads * shape.headDim;
  const kvWidth = shape.kvHeads * shape.headDim;
  for (let layer = 0; layer < shape.layers; layer++) {
    const block = `blk.${layer}`;
    list.push(
      norm(`${block}.attn_norm.weight`, shape.hidden),
      random(`${block}.attn_q.weight`, [shape.hidden, qWidth]),
      random(`${block}.attn_k.weight`, [shape.hidden, kvWidth]),
      random(`${block}.attn_v.weight`, [shape.hidden, kvWidth]),
      random(`${block}.attn_output.weight`, [qWidth, shape.hidden]),
      norm(`${block}.attn_q_norm.weight`, shape.headDim),
      norm(`${block}.attn_k_norm.weight`, shape.headDim),
      norm(`${block}.ffn_norm.weight`, shape.hidden),
      random(`${block}.ffn_gate.weight`, [shape.hidden, shape.ffn]),
      random(`${block}.ffn_up.weight`, [shape.hidden, shape.ffn]),
      random(`${block}.ffn_down.weight`, [shape.ffn, shape.hidden]),
    );
  }
  // Tied embeddings: no output.weight, llama.cpp reads token_embd for the output layer.
  list.push(norm("output_norm.weight", shape.hidden));
  return list;
}

/** The tokenizer's metadata, as convert_hf_to_gguf.py writes it for a Qwen3 model. */
async function tokenizerMetadata(tokenizerDir: string): Promise<[string, MetadataValue][]> {
  const tokenizer = JSON.parse(await readFile(join(tokenizerDir, "tokenizer.json"), "utf8")) as TokenizerJson;
  const config = JSON.parse(await readFile(join(tokenizerDir, "tokenizer_config.json"), "utf8")) as {
    chat_template: string;
  };
  const tokens = Array.from({ length: QWEN3_0_6B.vocab }, (_, id) => `[PAD${id}]`);
  const types = new Int32Array(QWEN3_0_6B.vocab).fill(UNUSED);
  for (const [token, id] of Object.entries(tokenizer.model.vocab)) {
    tokens[id] = token;
    types[id] = NORMAL;
  }
  for (const added of tokenizer.added_tokens) {
    tokens[added.id] = added.content;
    const looksSpecial = added.content.startsWith("<|") && added.content.endsWith("|>");
    types[added.id] = added.special || looksSpecial ? CONTROL : USER_DEFINED;
  }
  const merges = tokenizer.model.merges.map((merge) => (typeof merge === "string" ? merge : merge.join(" ")));
  return [
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "qwen2" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: types }],
    ["tokenizer.ggml.merges", { type: "string[]", value: merges }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: QWEN3_0_6B.bosTokenId }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: QWEN3_0_6B.eosTokenId }],
    ["tokenizer.ggml.padding_token_id", { type: "u32", value: QWEN3_0_6B.padTokenId }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
    // Qwen3's own template; the bench's server renders it with enable_thinking false, as llama-server does with
    // --reasoning-budget 0 (the setting the README gives).
    ["tokenizer.chat_template", { type: "string", value: config.chat_template }],
  ];
}

/** Writes the model to `path`; resolves with its size in bytes. */
export async function writeQwen3ShapeModel(path: string, tokenizerDir: string): Promise<number> {
  const shape = QWEN3_0_6B;
  const metadata = new Map<string, MetadataValue>([
    ["general.architecture", { type: "string", value: "qwen3" }],
    ["general.name", { type: "string", value: "Qwen3-0.6B shape, random weights (Ringback bench)" }],
    ["general.file_type", { type: "u32", value: 7 }], // mostly Q8_0
    ["general.quantization_version", { type: "u32", value: 2 }],
    ["qwen3.block_count", { type: "u32", value: shape.layers }],
    ["qwen3.context_length", { type: "u32", value: shape.trainedContext }],
    ["qwen3.embedding_length", { type: "u32", value: shape.hidden }],
    ["qwen3.feed_forward_length", { type: "u32", value: shape.ffn }],
    ["qwen3.attention.head_count", { type: "u32", value: shape.heads }],
    ["qwen3.attention.head_count_kv", { type: "u32", value: shape.kvHeads }],
    ["qwen3.attention.key_length", { type: "u32", value: shape.headDim }],
    ["qwen3.attention.value_length", { type: "u32", value: shape.headDim }],
    ["qwen3.rope.freq_base", { type: "f32", value: shape.ropeTheta }],
    ["qwen3.attention.layer_norm_rms_epsilon", { type: "f32", value: shape.rmsNormEps }],
    ...(await tokenizerMetadata(tokenizerDir)),
  ]);
  return writeGguf(path, metadata, tensors());
}

/** The number of weights of the shape (for the printed description). */
export function qwen3ShapeWeights(): number {
  return tensors().reduce((sum, tensor) => sum + tensor.dims.reduce((product, dim) => product * dim, 1), 0);
}
