import { open, rename } from "node:fs/promises";

/**
 * A GGUF (version 3) writer, enough for llama.cpp to load a model: typed metadata and tensors whose bytes are
 * written by the caller chunk by chunk, so a model of hundreds of MB never sits in memory whole.
 */

/** GGUF metadata value types. */
const ValueType = { Uint32: 4, Int32: 5, Float32: 6, Bool: 7, String: 8, Array: 9 } as const;

/** ggml tensor types used here. */
export const TensorType = { F32: 0, Q8_0: 8 } as const;
export type TensorType = (typeof TensorType)[keyof typeof TensorType];

export type MetadataValue =
  | { type: "u32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "i32[]"; value: Int32Array };

export interface TensorSpec {
  readonly name: string;
  /** ggml order: dims[0] is the row length (the innermost dimension). */
  readonly dims: readonly number[];
  readonly type: TensorType;
  /** Fills `chunk` with the tensor's next bytes (`offset` bytes of it are already written). */
  readonly fill: (chunk: Buffer, offset: number) => void;
}

const ALIGNMENT = 32;
/** Q8_0: 32 weights per block, an f16 scale and 32 int8. */
const Q8_0_BLOCK_WEIGHTS = 32;
export const Q8_0_BLOCK_BYTES = 34;
/** Whole Q8_0 blocks and whole f32 values per chunk, so a filler never sees half of one. */
const CHUNK_BYTES = Q8_0_BLOCK_BYTES * 4 * 60_000;

function tensorBytes(spec: Pick<TensorSpec, "dims" | "type">): number {
  const count = spec.dims.reduce((product, dim) => product * dim, 1);
  if (spec.type === TensorType.F32) return count * 4;
  if ((spec.dims[0] ?? 0) % Q8_0_BLOCK_WEIGHTS !== 0) throw new Error("a Q8_0 row must be a multiple of 32");
  return (count / Q8_0_BLOCK_WEIGHTS) * Q8_0_BLOCK_BYTES;
}

const align = (value: number) => Math.ceil(value / ALIGNMENT) * ALIGNMENT;

/** Appends little-endian values to a growing list of buffers. */
class Bytes {
  readonly parts: Buffer[] = [];
  length = 0;

  push(part: Buffer): void {
    this.parts.push(part);
    this.length += part.length;
  }
  u32(value: number): void {
    const part = Buffer.alloc(4);
    part.writeUInt32LE(value);
    this.push(part);
  }
  u64(value: number): void {
    const part = Buffer.alloc(8);
    part.writeBigUInt64LE(BigInt(value));
    this.push(part);
  }
  string(value: string): void {
    const encoded = Buffer.from(value, "utf8");
    this.u64(encoded.length);
    this.push(encoded);
  }
}

function writeValue(bytes: Bytes, entry: MetadataValue): void {
  switch (entry.type) {
    case "u32":
      bytes.u32(ValueType.Uint32);
      bytes.u32(entry.value);
      return;
    case "f32": {
      bytes.u32(ValueType.Float32);
      const part = Buffer.alloc(4);
      part.writeFloatLE(entry.value);
      bytes.push(part);
      return;
    }
    case "bool":
      bytes.u32(ValueType.Bool);
      bytes.push(Buffer.from([entry.value ? 1 : 0]));
      return;
    case "string":
      bytes.u32(ValueType.String);
      bytes.string(entry.value);
      return;
    case "string[]":
      bytes.u32(ValueType.Array);
      bytes.u32(ValueType.String);
      bytes.u64(entry.value.length);
      for (const item of entry.value) bytes.string(item);
      return;
    case "i32[]":
      bytes.u32(ValueType.Array);
      bytes.u32(ValueType.Int32);
      bytes.u64(entry.value.length);
      bytes.push(Buffer.from(entry.value.buffer, entry.value.byteOffset, entry.value.byteLength));
      return;
  }
}

/** Writes the model to `path` (through a temporary file renamed at the end, so a stopped run leaves no half file). */
export async function writeGguf(
  path: string,
  metadata: ReadonlyMap<string, MetadataValue>,
  tensors: readonly TensorSpec[],
): Promise<number> {
  const header = new Bytes();
  header.push(Buffer.from("GGUF", "ascii"));
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.size);
  for (const [key, value] of metadata) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(tensor.type);
    header.u64(offset);
    offsets.push(offset);
    offset = align(offset + tensorBytes(tensor));
  }
  header.push(Buffer.alloc(align(header.length) - header.length));

  const dataStart = align(header.length);
  const temporary = `${path}.${process.pid}.partial`;
  const file = await open(temporary, "w");
  try {
    let position = 0;
    const write = async (buffer: Buffer) => {
      await file.write(buffer, 0, buffer.length, position);
      position += buffer.length;
    };
    await write(Buffer.concat(header.parts));
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (const [index, tensor] of tensors.entries()) {
      const total = tensorBytes(tensor);
      position = dataStart + (offsets[index] ?? 0);
      for (let done = 0; done < total; ) {
        const size = Math.min(total - done, CHUNK_BYTES);
        const view = chunk.subarray(0, size);
        tensor.fill(view, done);
        await write(view);
        done += size;
      }
    }
    const end = dataStart + offset;
    if (position < end) await file.write(Buffer.alloc(end - position), 0, end - position, position);
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  return dataStart + offset;
}
