// Writes the PNG icons of the web app manifest (run once; the PNGs are committed). Draws the same picture as
// public/icons/icon.svg with no image library: a rounded square, a ring and a dot, encoded with node:zlib.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const BACKGROUND = [0x0f, 0x51, 0x32];
const FOREGROUND = [0xd1, 0xe7, 0xdd];

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function icon(size, { isMaskable }) {
  const scale = size / 512;
  const radius = isMaskable ? 0 : 112 * scale;
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const corner =
        Math.max(radius - Math.min(cx, size - cx), 0) ** 2 +
        Math.max(radius - Math.min(cy, size - cy), 0) ** 2;
      const isInside = radius === 0 || corner <= radius * radius;
      const distance = Math.hypot(cx - size / 2, cy - size / 2) / scale / (isMaskable ? 0.8 : 1);
      const isMark = (distance >= 136 && distance <= 164) || distance <= 70;
      const color = isMark ? FOREGROUND : BACKGROUND;
      row.set([...color, isInside ? 255 : 0], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const directory = new URL("../public/icons/", import.meta.url);
writeFileSync(new URL("icon-192.png", directory), icon(192, { isMaskable: false }));
writeFileSync(new URL("icon-512.png", directory), icon(512, { isMaskable: false }));
writeFileSync(new URL("icon-512-maskable.png", directory), icon(512, { isMaskable: true }));
