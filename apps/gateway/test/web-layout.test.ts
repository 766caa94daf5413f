import { createRequire } from "node:module";
import { join } from "node:path";
import { webRoot } from "@ask-user/web/dev";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { call, testGateway } from "./harness.ts";
import { ask, deploy, openPanel, PHONE, question, releasePlan, screenshot } from "./web-browser.ts";

/** Issue #22: the sheet's place on desktop, the stepper on phones, and an accessibility check. */

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
}

/**
 * axe-core (a devDependency of @ask-user/web) run in the page — its context must bypass the gateway's
 * CSP to take the injected script — and its serious and critical violations.
 */
async function axeViolations(page: Page): Promise<string[]> {
  const axe = createRequire(join(webRoot, "package.json")).resolve("axe-core/axe.min.js");
  if ((await page.evaluate("typeof axe")) === "undefined") await page.addScriptTag({ path: axe });
  const result = await page.evaluate<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice'] } })",
  );
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes)`);
}

describe("web panel: layout and accessibility", { timeout: 60_000 }, () => {
  it("on desktop the sheet sits right under the history: no empty gap, nothing pending covered", async () => {
    const gw = await testGateway();
    const done = await ask(gw.url, deploy);
    await call(`${gw.url}/v1/questions/${done}/skip`, "POST", {});
    const pending = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Staging/ }).waitFor();

    const card = await box(page, `[data-question-id="${pending}"]`);
    const panel = await box(page, ".panel");
    expect(card.y + card.height).toBeLessThanOrEqual(panel.y);
    expect(panel.y - (card.y + card.height)).toBeLessThan(40);
    await screenshot(page, "desktop");
  });

  it("on a short desktop window the history keeps 30% and the asked card stays in sight above the sheet", async () => {
    const gw = await testGateway();
    for (let i = 0; i < 6; i++) {
      const id = await ask(gw.url, deploy);
      await call(`${gw.url}/v1/questions/${id}/skip`, "POST", {});
    }
    const current = await ask(gw.url, releasePlan);
    const queued = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`, { viewport: { width: 1000, height: 600 } });
    await page.getByText("Question 1 of 3").waitFor();

    const history = await box(page, "main");
    const panel = await box(page, ".panel");
    // The prompt in the panel: its whole card in sight; the one queued after it: at least its top.
    const asked = await box(page, `[data-question-id="${current}"]`);
    expect(asked.y).toBeGreaterThanOrEqual(history.y - 1);
    expect(asked.y + asked.height).toBeLessThanOrEqual(history.y + history.height + 1);
    const next = await box(page, `[data-question-id="${queued}"]`);
    expect(next.y + 24).toBeLessThanOrEqual(history.y + history.height);
    for (const card of [asked, next]) expect(card.y).toBeLessThan(panel.y);
    expect(history.height).toBeGreaterThanOrEqual(600 * 0.3 - 1);
  });

  it("on a phone: one question a screen, 44 px targets, the history readable, a review, by touch", async () => {
    const gw = await testGateway();
    const done = await ask(gw.url, deploy);
    await call(`${gw.url}/v1/questions/${done}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`, { ...PHONE, bypassCSP: true });

    await page.getByText("Question 1 of 3").waitFor();
    expect(await page.locator('.panel [role="radiogroup"], .panel [role="group"]').count()).toBe(1);
    // No cards nested in cards: an option's only bordered ancestor is the sheet.
    const bordered = await page
      .locator(".panel .option")
      .first()
      .evaluate((option) => {
        let count = 0;
        for (let el = option.parentElement; el && el !== el.ownerDocument.body; el = el.parentElement) {
          if (Number.parseFloat(el.ownerDocument.defaultView.getComputedStyle(el).borderTopWidth) > 0)
            count++;
        }
        return count;
      });
    expect(bordered).toBeLessThanOrEqual(1);
    for (const control of await page.locator(".panel button, .toolbar select, .toolbar input").all()) {
      const size = await control.boundingBox();
      expect(size?.height ?? 0).toBeGreaterThanOrEqual(44);
      expect(size?.width ?? 0).toBeGreaterThanOrEqual(44);
    }
    const history = await box(page, "main");
    expect(history.height).toBeGreaterThanOrEqual(844 * 0.3 - 1);
    const answered = await box(page, `[data-question-id="${done}"]`);
    expect(answered.height).toBeGreaterThan(60); // the whole card, not one clipped line
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await screenshot(page, "phone");

    await page.getByRole("radio", { name: /Staging/ }).tap();
    await page.getByText("Question 2 of 3").waitFor();
    const next = page.getByRole("button", { name: "Next" });
    expect(await next.isDisabled()).toBe(true); // nothing chosen: it does not look ready
    await page.getByRole("checkbox", { name: /EU/ }).tap();
    await next.tap();
    await page.getByRole("radio", { name: /Blog post/ }).tap();
    await page.getByRole("region", { name: "Review your answers" }).waitFor();
    await screenshot(page, "phone-review");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Send answers" }).tap();
    await page.getByRole("region", { name: "Review your answers" }).waitFor({ state: "detached" });
    expect((await question(gw.url, id)).answers).toEqual({
      environment: ["Staging (Recommended)"],
      regions: ["EU"],
      announce: ["Blog post"],
    });
  });

  it("has no serious or critical axe violations: panel, review, Skip confirmation, history, light and dark", async () => {
    const gw = await testGateway();
    const done = await ask(gw.url, deploy);
    await call(`${gw.url}/v1/questions/${done}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    const plan = await ask(gw.url, releasePlan);
    for (const colorScheme of ["light", "dark"] as const) {
      // Each round starts from an empty shared draft (the last round's choices were staged in it).
      for (const question of ["environment", "regions", "announce"])
        await call(`${gw.url}/v1/questions/${plan}/draft`, "PUT", { question, values: [] });
      const page = await openPanel(`${gw.url}/`, { colorScheme, bypassCSP: true });
      await page.getByText("Question 1 of 3").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("radio", { name: /Production/ }).click();
      await page.getByRole("checkbox", { name: /US/ }).click();
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByRole("radio", { name: /Blog post/ }).click();
      await page.getByRole("region", { name: "Review your answers" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Skip" }).click();
      await page.getByRole("alertdialog").waitFor();
      expect(await axeViolations(page)).toEqual([]);
    }
  });
});
