/**
 * Draws the installable app's icons (PNG, no image library: node:zlib) into public/icons/:
 * `pnpm --filter @ask-user/web icons`. The files are committed; run this again only to change them.
 * A white "?" on the panel's accent colour (#3451c7): `icon-*.png` on a rounded square with transparent
 * corners (purpose "any"), `maskable-*.png` and `apple-touch-icon.png` full-bleed (the platform cuts the
 * shape; the glyph stays inside the maskable safe zone, the centre circle of 80 %).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";

const ACCENT = [0x34, 0x51, 0xc7] as const;
const OUT = join(import.meta.dirname, "..", "public", "icons");
const SAMPLES = 4; // 4 × 4 samples a pixel: smooth edges

type Shape = "rounded" | "full";

/** Distance from (x, y) to the segment (ax, ay)–(bx, by). */
function segment(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

/** The "?" in the unit square (y down): an arc, its stem and the dot, with round ends. */
function inGlyph(x: number, y: number): boolean {
  const cx = 0.5;
  const cy = 0.37;
  const r = 0.135;
  const half = 0.045; // half the stroke
  const degrees = (Math.atan2(cy - y, x - cx) * 180) / Math.PI; // 0° right, 90° up, -90° down
  const angle = degrees < -90 ? degrees + 360 : degrees; // -90° … 270°: the arc runs from -90° to 200°
  const onArc = Math.abs(Math.hypot(x - cx, y - cy) - r) <= half && angle <= 200;
  const leftEnd = [
    cx + r * Math.cos((200 * Math.PI) / 180),
    cy - r * Math.sin((200 * Math.PI) / 180),
  ] as const;
  const cap = Math.hypot(x - leftEnd[0], y - leftEnd[1]) <= half;
  const stem = segment(x, y, cx, cy + r, cx, cy + r + 0.075) <= half;
  const dot = Math.hypot(x - cx, y - 0.705) <= 0.058;
  return onArc || cap || stem || dot;
}

function inBackground(x: number, y: number, shape: Shape): boolean {
  if (shape === "full") return true;
  const inset = 0.03;
  const radius = 0.2;
  const qx = Math.max(Math.abs(x - 0.5) - (0.5 - inset - radius), 0);
  const qy = Math.max(Math.abs(y - 0.5) - (0.5 - inset - radius), 0);
  return Math.hypot(qx, qy) <= radius;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGBA PNG of the icon at `size` × `size`. */
export function drawIcon(size: number, shape: Shape): Buffer {
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    const row = py * (size * 4 + 1);
    rows[row] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let alpha = 0;
      let white = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / size;
          const y = (py + (sy + 0.5) / SAMPLES) / size;
          if (!inBackground(x, y, shape)) continue;
          alpha++;
          if (inGlyph(x, y)) white++;
        }
      }
      const at = row + 1 + px * 4;
      const mix = alpha === 0 ? 0 : white / alpha;
      for (let c = 0; c < 3; c++) rows[at + c] = Math.round((ACCENT[c] ?? 0) * (1 - mix) + 255 * mix);
      rows[at + 3] = Math.round((255 * alpha) / (SAMPLES * SAMPLES));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const ICONS: Array<[name: string, size: number, shape: Shape]> = [
  ["icon-192.png", 192, "rounded"],
  ["icon-512.png", 512, "rounded"],
  ["maskable-192.png", 192, "full"],
  ["maskable-512.png", 512, "full"],
  ["apple-touch-icon.png", 180, "full"],
];

for (const [name, size, shape] of ICONS) writeFileSync(join(OUT, name), drawIcon(size, shape));
process.stdout.write(`Wrote ${ICONS.length} icons to ${OUT}\n`);
