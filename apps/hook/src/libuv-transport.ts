import type { ByteChannel, Transport } from "./byte-channel.js";

/**
 * The fast transport: libuv's pipe and TCP handles, the very ones node:net wraps, reached through `process.binding`.
 * The report path then loads neither node:net nor node:stream, which were about 4 ms of every agent turn: most of
 * what the hook cost beyond starting Node. These handles are Node's internals, so they are used only on the majors
 * the tests run the hook on (test/node-majors.test.ts), and not on Windows, whose pipes node:net opens otherwise;
 * anywhere else, when a member is missing, when deprecations are made loud, or with `RINGBACK_HOOK_TRANSPORT=net`,
 * the hook uses node:net (net-transport.ts).
 */
const TESTED_NODE_MAJORS = [22, 24, 26];

const LOOPBACK = "127.0.0.1";

interface StreamHandle {
  /** Node asserts that this is a function (a wrong type aborts the process), so it is set once and never cleared. */
  onread: (arrayBuffer: ArrayBuffer | undefined) => void;
  readStart(): number;
  writeUtf8String(request: WriteRequest, text: string): number;
  close(): void;
}

interface PipeHandle extends StreamHandle {
  open(fd: number): number;
}

interface TcpHandle extends StreamHandle {
  connect(request: ConnectRequest, address: string, port: number): number;
  setNoDelay(enable: boolean): number;
}

interface WriteRequest {
  handle: StreamHandle;
  async: boolean;
  oncomplete: (status: number) => void;
}

interface ConnectRequest {
  address: string;
  port: number;
  oncomplete: (status: number) => void;
}

interface Bindings {
  Pipe: new (type: number) => PipeHandle;
  pipeSocket: number;
  TCP: new (type: number) => TcpHandle;
  tcpSocket: number;
  TCPConnectWrap: new () => ConnectRequest;
  WriteWrap: new () => WriteRequest;
  /** Where libuv leaves the last read's byte count (or error) and its offset in the buffer, as node:net reads them. */
  state: Int32Array;
  readBytesOrError: number;
  arrayBufferOffset: number;
  lastWriteWasAsync: number;
  eof: number;
}

type AnyRecord = Record<string, unknown>;

function isFunction(value: unknown): boolean {
  return typeof value === "function";
}

function areNumbers(...values: unknown[]): boolean {
  return values.every((value) => typeof value === "number");
}

/** The bindings when every member the transport touches is there with the expected type, else `undefined`. */
function loadBindings(): Bindings | undefined {
  const binding = (process as unknown as { binding?: (name: string) => AnyRecord }).binding;
  if (!binding) return undefined;
  try {
    const tcp = binding("tcp_wrap");
    const pipe = binding("pipe_wrap");
    const stream = binding("stream_wrap");
    const uv = binding("uv");
    const tcpConstants = tcp.constants as AnyRecord | undefined;
    const pipeConstants = pipe.constants as AnyRecord | undefined;
    const TCP = tcp.TCP as { prototype: AnyRecord } | undefined;
    const Pipe = pipe.Pipe as { prototype: AnyRecord } | undefined;
    const usable =
      isFunction(TCP) &&
      isFunction(Pipe) &&
      isFunction(tcp.TCPConnectWrap) &&
      isFunction(stream.WriteWrap) &&
      stream.streamBaseState instanceof Int32Array &&
      areNumbers(
        tcpConstants?.SOCKET,
        pipeConstants?.SOCKET,
        stream.kReadBytesOrError,
        stream.kArrayBufferOffset,
        stream.kLastWriteWasAsync,
        uv.UV_EOF,
      ) &&
      ["readStart", "writeUtf8String", "close", "connect", "setNoDelay"].every((name) =>
        isFunction(TCP?.prototype[name]),
      ) &&
      ["readStart", "writeUtf8String", "close", "open"].every((name) => isFunction(Pipe?.prototype[name]));
    if (!usable) return undefined;
    return {
      Pipe: Pipe as unknown as Bindings["Pipe"],
      pipeSocket: pipeConstants?.SOCKET as number,
      TCP: TCP as unknown as Bindings["TCP"],
      tcpSocket: tcpConstants?.SOCKET as number,
      TCPConnectWrap: tcp.TCPConnectWrap as Bindings["TCPConnectWrap"],
      WriteWrap: stream.WriteWrap as Bindings["WriteWrap"],
      state: stream.streamBaseState as Int32Array,
      readBytesOrError: stream.kReadBytesOrError as number,
      arrayBufferOffset: stream.kArrayBufferOffset as number,
      lastWriteWasAsync: stream.kLastWriteWasAsync as number,
      eof: uv.UV_EOF as number,
    };
  } catch {
    return undefined;
  }
}

/** `--pending-deprecation` makes `process.binding` print a warning, `--throw-deprecation` makes it throw. */
function deprecationsAreLoud(env: NodeJS.ProcessEnv): boolean {
  return /--(pending|throw)-deprecation/.test(`${env.NODE_OPTIONS ?? ""} ${process.execArgv.join(" ")}`);
}

function errorName(status: number): string {
  try {
    return process.getBuiltinModule("node:util").getSystemErrorName(status);
  } catch {
    return `error ${status}`;
  }
}

/**
 * A handle as a channel. A TCP handle starts `connecting`: what is written meanwhile is sent, and reading starts,
 * once `connected` is called.
 */
function handleChannel(handle: StreamHandle, bindings: Bindings, connecting: boolean) {
  let onChunk: ((chunk: Buffer) => void) | undefined;
  let onEnd: ((error?: string) => void) | undefined;
  let endReason: { error?: string } | undefined;
  let isConnected = !connecting;
  let reading = false;
  let closed = false;
  const queued: string[] = [];
  // Kept until done: an asynchronous write must outlive the call that made it.
  const writesInFlight = new Set<WriteRequest>();

  const end = (error?: string) => {
    if (endReason) return;
    endReason = error === undefined ? {} : { error };
    onEnd?.(error);
  };

  const startReading = () => {
    if (reading || !onChunk || !isConnected || endReason) return;
    reading = true;
    handle.onread = (arrayBuffer) => {
      if (closed) return;
      const bytes = bindings.state[bindings.readBytesOrError] as number;
      if (bytes > 0 && arrayBuffer) {
        const offset = bindings.state[bindings.arrayBufferOffset] as number;
        onChunk?.(Buffer.copyBytesFrom(new Uint8Array(arrayBuffer, offset, bytes)));
      } else if (bytes < 0) {
        end(bytes === bindings.eof ? undefined : `read ${errorName(bytes)}`);
      }
    };
    const status = handle.readStart();
    if (status < 0) end(`read ${errorName(status)}`);
  };

  const send = (text: string) => {
    const request = new bindings.WriteWrap();
    request.handle = handle;
    request.async = false;
    request.oncomplete = (status) => {
      writesInFlight.delete(request);
      if (status < 0) end(`write ${errorName(status)}`);
    };
    const status = handle.writeUtf8String(request, text);
    if (status < 0) end(`write ${errorName(status)}`);
    else if (bindings.state[bindings.lastWriteWasAsync]) writesInFlight.add(request);
  };

  const channel: ByteChannel = {
    read(chunkListener, endListener) {
      onChunk = chunkListener;
      onEnd = endListener;
      if (endReason) return endListener(endReason.error);
      startReading();
    },
    write(text) {
      if (closed || endReason) return;
      if (isConnected) send(text);
      else queued.push(text);
    },
    close() {
      if (closed) return;
      closed = true;
      handle.close();
    },
  };
  return {
    channel,
    connected() {
      if (closed) return;
      isConnected = true;
      for (const text of queued.splice(0)) send(text);
      startReading();
    },
    failed: end,
  };
}

function stdinChannel(bindings: Bindings): ByteChannel | undefined {
  // Pipes and sockets only (what an agent gives its hook); a file or a terminal on stdin takes the stream path.
  let kind: { isFIFO(): boolean; isSocket(): boolean };
  try {
    kind = process.getBuiltinModule("node:fs").fstatSync(0);
  } catch {
    return undefined;
  }
  if (!kind.isFIFO() && !kind.isSocket()) return undefined;
  const pipe = new bindings.Pipe(bindings.pipeSocket);
  if (pipe.open(0) < 0) {
    pipe.close();
    return undefined;
  }
  return handleChannel(pipe, bindings, false).channel;
}

function tcpChannel(bindings: Bindings, port: number): ByteChannel {
  const tcp = new bindings.TCP(bindings.tcpSocket);
  const { channel, connected, failed } = handleChannel(tcp, bindings, true);
  const request = new bindings.TCPConnectWrap();
  request.address = LOOPBACK;
  request.port = port;
  request.oncomplete = (status) => {
    if (status < 0) return failed(`connect ${errorName(status)} ${LOOPBACK}:${port}`);
    tcp.setNoDelay(true);
    connected();
  };
  const status = tcp.connect(request, LOOPBACK, port);
  if (status < 0) failed(`connect ${errorName(status)} ${LOOPBACK}:${port}`);
  return channel;
}

/** The fast transport when this Node.js can give it (see the top of this file), else `undefined`. */
export function libuvTransport(
  env: NodeJS.ProcessEnv,
  nodeVersion: string = process.versions.node,
  platform: NodeJS.Platform = process.platform,
): Transport | undefined {
  if (env.RINGBACK_HOOK_TRANSPORT === "net" || platform === "win32") return undefined;
  const major = Number(nodeVersion.split(".")[0]);
  if (!TESTED_NODE_MAJORS.includes(major) || deprecationsAreLoud(env)) return undefined;
  const bindings = loadBindings();
  if (!bindings) return undefined;
  return {
    name: "libuv handles",
    stdin: () => stdinChannel(bindings),
    connect: (port) => tcpChannel(bindings, port),
  };
}
