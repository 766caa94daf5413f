import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { call, testGateway, textWebhook } from "./harness.ts";
import { ask, deploy, openPanel, PHONE, question, releasePlan, screenshot } from "./web-browser.ts";

/** WCAG contrast of an element's text against its badge background (both as the browser computes them). */
function contrastOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((css) => {
    // biome-ignore lint/suspicious/noExplicitAny: the page's DOM; the gateway's tsconfig has no DOM types
    const element = (globalThis as any).document.querySelector(css);
    const channels = (css: string): number[] => {
      const srgb = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)/.exec(css);
      if (srgb) return srgb.slice(1, 4).map((v) => Number(v) * 255);
      return (/rgba?\((\d+), (\d+), (\d+)/.exec(css) ?? []).slice(1, 4).map(Number);
    };
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = element.ownerDocument.defaultView.getComputedStyle(element);
    const [light, dark] = [luminance(channels(style.color)), luminance(channels(style.backgroundColor))].sort(
      (a, b) => b - a,
    );
    return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
  }, selector);
}

const focusVisible = (page: Page) =>
  page.evaluate<string | null>('document.querySelector(":focus-visible")?.textContent ?? null');
const activeTag = (page: Page) => page.evaluate<string | undefined>("document.activeElement?.tagName");

describe("web panel: reading and keyboard", { timeout: 40_000 }, () => {
  it("shows no focus ring at load; the first arrow key puts the focus on the options", async () => {
    const gw = await testGateway();
    await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Staging/ }).waitFor();
    expect(await focusVisible(page)).toBeNull();
    expect(await activeTag(page)).toBe("BODY");
    await page.keyboard.press("ArrowDown");
    expect(await focusVisible(page)).toContain("Staging");
    await page.keyboard.press("ArrowDown");
    expect(await focusVisible(page)).toContain("Production");
  });

  it("lets the history scroll by keyboard: a focusable, labelled region that keeps its arrow keys", async () => {
    const gw = await testGateway();
    for (let i = 0; i < 12; i++) {
      const id = await ask(gw.url, deploy);
      await call(`${gw.url}/v1/questions/${id}/skip`, "POST", {});
    }
    await ask(gw.url, deploy); // the panel is open too
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Staging/ }).waitFor();
    const history = page.getByRole("main", { name: "Questions" });
    expect(await history.getAttribute("tabindex")).toBe("0");
    const scrollTop = () => history.evaluate((el) => el.scrollTop);
    await expect.poll(scrollTop).toBeGreaterThan(0); // it opens at the newest card
    const before = await scrollTop();
    // Tab goes through the top bar (Notify me) and the history's filter and search to the history.
    for (let presses = 0; presses < 6 && (await activeTag(page)) !== "MAIN"; presses++) {
      await page.keyboard.press("Tab");
    }
    expect(await activeTag(page)).toBe("MAIN");
    expect(await focusVisible(page)).not.toBeNull();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("PageUp");
    await expect.poll(scrollTop).toBeLessThan(before);
    expect(await activeTag(page)).toBe("MAIN");
  });

  it("gives the recommended badge at least 4.5:1 contrast, light and dark, chosen or not", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, {
      questions: [
        {
          id: "regions",
          header: "Regions",
          question: "Which regions?",
          multiSelect: true,
          options: [{ label: "EU (Recommended)" }, { label: "US" }],
        },
      ],
    });
    for (const colorScheme of ["light", "dark"] as const) {
      // The last round's choice is in the shared draft: each round starts from none.
      await call(`${gw.url}/v1/questions/${id}/draft`, "PUT", { question: "regions", values: [] });
      const page = await openPanel(`${gw.url}/`, { colorScheme });
      const eu = page.getByRole("checkbox", { name: /EU/ });
      await eu.waitFor();
      expect(await contrastOf(page, ".badge")).toBeGreaterThanOrEqual(4.5);
      await eu.click();
      // The click stages the choice in the shared draft; the last round's clearing may still be on its
      // way to the page, so the checkbox settles on the newest draft.
      await expect.poll(() => eu.getAttribute("aria-checked")).toBe("true");
      expect(await contrastOf(page, ".badge")).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("shows the deadline as a clock time in the reader's time zone next to the countdown", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, deploy);
    const { expiresAt } = (await question(gw.url, id)) as { expiresAt: number };
    const page = await openPanel(`${gw.url}/`, { timezoneId: "Asia/Kolkata" });
    const deadline = page.locator(".panel .deadline");
    await deadline.waitFor();
    // The panel corrects for the browser's clock offset (whole seconds): either side of a minute is fine.
    const clock = new Intl.DateTimeFormat("en-US", {
      hour: "numeric",
      minute: "2-digit",
      timeZone: "Asia/Kolkata",
    });
    // A deadline on another day than now (there) shows its date too: "until Dec 5, 12:09 AM".
    const withDate = new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: "Asia/Kolkata",
    });
    const day = new Intl.DateTimeFormat("en-CA", { dateStyle: "short", timeZone: "Asia/Kolkata" });
    const expected = [expiresAt - 2000, expiresAt, expiresAt + 2000].map((t) =>
      day.format(t) === day.format(Date.now()) ? `until ${clock.format(t)}` : `until ${withDate.format(t)}`,
    );
    expect(expected).toContain(await deadline.textContent());
    expect(await page.getByRole("timer").textContent()).toMatch(/1[45]:\d\d left/);
  });

  it("on a phone shows the question once: the stepper's step, the card above with its headers only", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`, PHONE);
    await page.getByText("Question 1 of 3").waitFor();
    const [first, ...later] = releasePlan.questions.map((q) => q?.question ?? "");
    expect(await page.getByText(first ?? "", { exact: true }).count()).toBe(1);
    for (const text of later) expect(await page.getByText(text, { exact: true }).count()).toBe(0);
    expect(await page.locator(`[data-question-id="${id}"]`).textContent()).toContain(
      "Environment · Regions · Announce",
    );
  });

  it("preselects what was already picked in a chat (the shared draft), live", async () => {
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: (await textWebhook()).url });
    await ask(gw.url, { ...releasePlan, target: "text:alice" });
    const page = await openPanel(`${gw.url}/`);
    await page.getByText("Question 1 of 3").waitFor();
    // Alice answers the first two in the chat; the text stepper stores them as the shared draft.
    await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "1: 2; 2: EU, Asia",
      replyTo: "m1",
    });
    await page.getByText("Question 3 of 3").waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    expect(await page.getByRole("checkbox", { name: /EU/ }).getAttribute("aria-checked")).toBe("true");
    expect(await page.getByRole("checkbox", { name: /Asia/ }).getAttribute("aria-checked")).toBe("true");
    expect(await page.getByRole("checkbox", { name: /US/ }).getAttribute("aria-checked")).toBe("false");
    await page.getByRole("button", { name: "Back" }).click();
    expect(await page.getByRole("radio", { name: /Production/ }).getAttribute("aria-checked")).toBe("true");
    await screenshot(page, "shared-draft");
  });
});
