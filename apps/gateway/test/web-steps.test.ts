import { describe, expect, it } from "vitest";
import { testGateway } from "./harness.ts";
import { ask, openPanel, question, releasePlan, screenshot } from "./web-browser.ts";

/** Issue #22: Enter, the first keys after a prompt appears, Skip with staged answers, the review. */
describe("web panel: keys, Skip and the review", { timeout: 40_000 }, () => {
  it("Enter confirms a multi-select step (Space toggles): 1, 3, Enter goes on with EU kept", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`);
    await page.getByText("Question 1 of 3").waitFor();
    await page.keyboard.press("ArrowDown"); // a keyboard user: the next step's first option gets the focus
    await page.keyboard.press("1");
    await page.getByText("Question 2 of 3").waitFor();
    const eu = page.getByRole("checkbox", { name: /EU/ });
    await expect.poll(() => eu.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await page.keyboard.press("1");
    await page.keyboard.press("3");
    await page.keyboard.press("Enter");
    await page.getByText("Question 3 of 3").waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    expect(await eu.getAttribute("aria-checked")).toBe("true");
    expect(await page.getByRole("checkbox", { name: /Asia/ }).getAttribute("aria-checked")).toBe("true");

    // Space on the focused option toggles it; Enter then confirms without toggling.
    await page.getByRole("checkbox", { name: /US/ }).focus();
    await page.keyboard.press("Space");
    expect(await page.getByRole("checkbox", { name: /US/ }).getAttribute("aria-checked")).toBe("true");
    await page.keyboard.press("Enter");
    await page.getByText("Question 3 of 3").waitFor();
    await page.keyboard.press("2");
    const review = page.getByRole("region", { name: "Review your answers" });
    await review.waitFor();
    await page.keyboard.press("Enter");
    await review.waitFor({ state: "detached" });
    expect((await question(gw.url, id)).answers).toEqual({
      environment: ["Staging (Recommended)"],
      regions: ["EU", "US", "Asia"],
      announce: ["Blog post"],
    });
  });

  it("takes a key pressed the moment the prompt appears", async () => {
    const gw = await testGateway();
    const page = await openPanel("about:blank");
    // The instant the options are in the page (before the next frame), press "2" — as a fast reader would.
    await page.addInitScript(`
      const observer = new MutationObserver(() => {
        if (!document.querySelector('[role="radiogroup"]')) return;
        observer.disconnect();
        document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "2", bubbles: true, cancelable: true }));
      });
      observer.observe(document, { childList: true, subtree: true });
    `);
    const id = await ask(gw.url, releasePlan);
    await page.goto(`${gw.url}/`);
    await page.getByText("Question 2 of 3").waitFor();
    expect(await page.getByText("Question 1 of 3").count()).toBe(0);
    await page.getByRole("button", { name: "Back" }).click();
    expect(await page.getByRole("radio", { name: /Production/ }).getAttribute("aria-checked")).toBe("true");
    expect((await question(gw.url, id)).status).toBe("pending");
  });

  it("Skip with answers staged asks first, names what is skipped, and can be called off", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByText("Question 2 of 3").waitFor();
    await page.getByRole("button", { name: "Skip" }).click();

    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Skip all 3 questions?");
    expect(await dialog.textContent()).toContain("Your answer to Environment will not be sent");
    const keep = page.getByRole("button", { name: "Keep answering" });
    expect(await keep.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await screenshot(page, "skip-confirm");
    expect((await question(gw.url, id)).status).toBe("pending");

    await keep.click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("Question 2 of 3").waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    expect(await page.getByRole("radio", { name: /Production/ }).getAttribute("aria-checked")).toBe("true");

    // Esc calls the question off too, without collapsing the panel.
    await page.getByRole("button", { name: "Skip" }).click();
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await page.getByText("Question 1 of 3").count()).toBe(1);

    await page.getByRole("button", { name: "Skip" }).click();
    await page.getByRole("button", { name: "Skip all 3" }).click();
    await expect.poll(async () => (await question(gw.url, id)).status).toBe("skipped");
  });

  it("reviews every answer before the last Send, and Change goes back to that question", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByRole("checkbox", { name: /US/ }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: /Changelog only/ }).click();

    const review = page.getByRole("region", { name: "Review your answers" });
    await review.waitFor();
    const text = await review.textContent();
    expect(text).toContain("Production");
    expect(text).toContain("US");
    expect(text).toContain("Changelog only");
    expect((await question(gw.url, id)).status).toBe("pending"); // nothing sent yet
    await screenshot(page, "review");

    await page.getByRole("button", { name: "Change Regions" }).click();
    await page.getByText("Question 2 of 3").waitFor();
    await page.getByRole("checkbox", { name: /Asia/ }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await review.waitFor(); // straight back to the review
    expect(await review.textContent()).toContain("US, Asia");
    await page.getByRole("button", { name: "Send answers" }).click();
    await review.waitFor({ state: "detached" });
    expect((await question(gw.url, id)).answers).toEqual({
      environment: ["Production"],
      regions: ["US", "Asia"],
      announce: ["Changelog only (Recommended)"],
    });
  });
});
