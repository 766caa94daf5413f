import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ensureWebBuild, webRoot } from "@ask-user/web/dev";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { call } from "./harness.ts";

/**
 * Browser tests of the web panel: Debian's Chromium driven by playwright-core (never a downloaded
 * browser), against a real gateway started in-process by the harness.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

/** Screenshots of each run (git-ignored); `pnpm --filter @ask-user/web screenshots` copies them to docs/. */
export const SCREENSHOTS = join(webRoot, "test-output");

// One browser per test file (a launch costs a second or two), one fresh context per test: each test
// gets its own storage, cookies and tabs, closed after it; the browser closes after the file.
let shared: Promise<Browser> | undefined;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await ensureWebBuild(); // the panel as `pnpm start` serves it (a fresh clone has no dist/ yet)
}, 60_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  const browser = shared;
  shared = undefined;
  await (await browser?.catch(() => undefined))?.close();
});

function browser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 20_000 });
  return shared;
}

/** A fresh browser context (no storage shared with other tests), closed after the test. */
export async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await (await browser()).newContext({
    locale: "en-US",
    viewport: { width: 1000, height: 760 },
    reducedMotion: "reduce",
    ...options,
  });
  contexts.push(context);
  return context;
}

/** A phone's window, for `openPanel(url, PHONE)`. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};

/**
 * Opens the panel at `url` (the gateway's `/`, maybe with `?token=`) in a new tab: of `context` when
 * given (two tabs of one browser), else of a fresh context.
 */
export async function openPanel(
  url: string,
  options: BrowserContextOptions = {},
  context?: BrowserContext,
): Promise<Page> {
  const page = await (context ?? (await newContext(options))).newPage();
  page.setDefaultTimeout(5_000);
  await page.goto(url);
  return page;
}

/**
 * Saves a screenshot of the page's current state under apps/web/test-output/; with
 * `UPDATE_SCREENSHOTS=1` also into apps/web/docs/, the pictures of the web README.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, animations: "disabled", caret: "hide" });
  if (process.env.UPDATE_SCREENSHOTS === "1") copyFileSync(path, join(webRoot, "docs", `${name}.png`));
}

/** Creates a question through the HTTP API, as an agent would; returns its id. */
export async function ask(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<string> {
  const { status, body: created } = await call(`${baseUrl}/v1/questions`, "POST", body, headers);
  if (status !== 201) throw new Error(`creating the question failed: ${status} ${JSON.stringify(created)}`);
  return created.id as string;
}

/** The question as the API shows it now. */
export async function question(
  baseUrl: string,
  id: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  return (await call(`${baseUrl}/v1/questions/${id}`, "GET", undefined, headers)).body;
}

export const deploy = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy the release?",
      options: [
        { label: "Staging (Recommended)", description: "Safe: reversible, no customers see it" },
        { label: "Production", description: "Customers get it right away" },
      ],
    },
  ],
};

export const regions = {
  questions: [
    {
      id: "regions",
      header: "Regions",
      question: "Which regions should get the release?",
      options: [
        { label: "EU", description: "Frankfurt and Dublin" },
        { label: "US", description: "Virginia" },
        { label: "Asia", description: "Singapore" },
      ],
      multiSelect: true,
    },
  ],
};

export const releasePlan = {
  questions: [
    {
      id: "environment",
      header: "Environment",
      question: "Which environment should the release go to first?",
      options: [{ label: "Staging (Recommended)", description: "Try it out first" }, { label: "Production" }],
    },
    regions.questions[0],
    {
      id: "announce",
      header: "Announce",
      question: "How should the release be announced?",
      options: [
        { label: "Changelog only (Recommended)" },
        { label: "Blog post", description: "Needs a writer" },
      ],
    },
  ],
};
