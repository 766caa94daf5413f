import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** Every import circle among core's sources (type-only imports included), as `a → b → a`. */
function circles(): string[] {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    graph.set(
      file,
      [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1] ?? ""))),
    );
  }
  const found: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, stack: string[]) => {
    if (stack.includes(file)) {
      found.push([...stack.slice(stack.indexOf(file)), file].map((f) => relative(SRC, f)).join(" → "));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...stack, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

describe("core's layout", () => {
  it("has no import circle", () => {
    expect(circles()).toEqual([]);
  });

  it("keeps only the entry points at the top of src; everything else is in a folder by concern", () => {
    const top = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isFile());
    expect(top.sort()).toEqual(["channel.ts", "index.ts", "store.ts"]);
  });
});
