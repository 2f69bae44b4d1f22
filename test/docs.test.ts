import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsById } from "../src/api/operations.js";
import { testApp, type TestApp } from "./helpers/app.js";

/**
 * The docs page in a real browser: Debian's chromium (installed by npm test's pretest), never a downloaded
 * one; CHROMIUM_PATH names another installed Chromium or Chrome (GitHub's runners have Chrome).
 * Checks that the reference renders the operation table and fetches nothing from elsewhere.
 */
const PAGE_TIMEOUT = 30_000;
const SHOWN = ["listServices", "recommend", "reviewTicket"].map((id) => operationsById.get(id)!.summary);

let t: TestApp;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  t = await testApp();
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("/docs", () => {
  it("lists the operations, with every asset from this server", { timeout: 2 * PAGE_TIMEOUT }, async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    // Whatever the Content-Security-Policy blocks is reported to the page: collect it.
    await page.addInitScript(() => {
      const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = []);
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });

    const response = await page.goto(`${origin}/docs`, { timeout: PAGE_TIMEOUT });
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toMatch(/^default-src 'none'; script-src 'self' 'unsafe-eval' 'sha256-[A-Za-z0-9+/=]+';/);
    // The reference renders once it has fetched the document. Its fonts load after that, and they
    // are what such pages usually pull from a CDN, so wait for them before judging the requests.
    // (Playwright's "networkidle" never fires with this chromium, so it cannot be the signal.)
    await page.getByText(SHOWN[0]!).first().waitFor({ timeout: PAGE_TIMEOUT });
    await page.evaluate(() => document.fonts.ready);

    const text = await page.locator("body").innerText();
    for (const summary of SHOWN) expect(text).toContain(summary);
    expect(requested).toContain(`${origin}/api/v1/openapi.json`);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    await page.close();
  });
});
