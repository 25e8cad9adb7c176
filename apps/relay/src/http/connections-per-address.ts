import type { Socket } from "node:net";
import type { RelayLog } from "../log.js";
import { addressBucket } from "./client-address.js";

/**
 * Open connections per client address (IPv6: its /64), counted at the socket, before a byte of a request is read:
 * beyond `max` a new connection from that address is closed at once, so one address cannot hold thousands of
 * half-open connections (each a socket and a parser) while other addresses are served as before. Used when the
 * relay takes connections from clients directly; behind a proxy every socket is the proxy's.
 */
export class ConnectionsPerAddress {
  readonly #max: number;
  readonly #log: RelayLog;
  readonly #open = new Map<string, number>();
  readonly #addressOf = new WeakMap<Socket, string>();
  /** One "close" listener shared by every socket (thousands of idle streams each hold one), not a closure each. */
  readonly #closed: (this: Socket) => void;
  /** Addresses already logged as full, until they drop below the limit: one line, not one per refused socket. */
  readonly #isLoggedFull = new Set<string>();

  constructor(max: number, log: RelayLog) {
    this.#max = max;
    this.#log = log;
    const release = (socket: Socket) => this.#release(socket);
    this.#closed = function closed(this: Socket) {
      release(this);
    };
  }

  /** The server's `connection` listener: counts the socket until it closes, or closes it when its address is full. */
  readonly admit = (socket: Socket): void => {
    const address = socket.remoteAddress ? addressBucket(socket.remoteAddress) : "unknown";
    const open = this.#open.get(address) ?? 0;
    if (open >= this.#max) {
      if (!this.#isLoggedFull.has(address)) {
        this.#isLoggedFull.add(address);
        this.#log.line(`connection refused: ${this.#max} connections open from one address`);
      }
      socket.destroy();
      return;
    }
    this.#open.set(address, open + 1);
    this.#addressOf.set(socket, address);
    socket.on("close", this.#closed);
  };

  #release(socket: Socket): void {
    const address = this.#addressOf.get(socket);
    if (address === undefined) return;
    this.#addressOf.delete(socket);
    const open = (this.#open.get(address) ?? 1) - 1;
    if (open > 0) this.#open.set(address, open);
    else this.#open.delete(address);
    if (open < this.#max) this.#isLoggedFull.delete(address);
  }
}
