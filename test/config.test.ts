import { describe, expect, it } from "vitest";
import { readConfig } from "../src/config.js";
import { publicAddressWarning } from "../src/serve.js";

describe("readConfig", () => {
  it("serves on 127.0.0.1:3000 the sample build, and links to that address, when nothing is set", () => {
    expect(readConfig({})).toMatchObject({ port: 3000, host: "127.0.0.1", catalogDir: "dist/catalog", publicBaseUrl: "http://127.0.0.1:3000", dataFile: "data/frontdesk.json" });
  });

  it("takes PORT, HOST, FRONTDESK_CATALOG and PUBLIC_BASE_URL from the environment", () => {
    const config = readConfig({ PORT: "8080", HOST: "0.0.0.0", FRONTDESK_CATALOG: "/srv/catalog", PUBLIC_BASE_URL: "https://api.example.com/" });
    expect(config).toMatchObject({ port: 8080, host: "0.0.0.0", catalogDir: "/srv/catalog", publicBaseUrl: "https://api.example.com" });
  });

  it("links to localhost when exposed on every interface without a public address", () => {
    expect(readConfig({ HOST: "0.0.0.0", PORT: "8080" }).publicBaseUrl).toBe("http://localhost:8080");
  });

  it("names the variable and what it must be when a number is wrong", () => {
    expect(() => readConfig({ PORT: "eighty" })).toThrow('PORT must be a whole number (got "eighty")');
    expect(() => readConfig({ DATABASE_POOL_SIZE: "0" })).toThrow("DATABASE_POOL_SIZE must be a whole number of at least 1");
  });

  it("trusts no proxy unless TRUST_PROXY names a hop count or the proxies' addresses", () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: "10.0.0.5, 10.1.0.0/16" }).trustProxy).toEqual(["10.0.0.5", "10.1.0.0/16"]);
    expect(() => readConfig({ TRUST_PROXY: "true" })).toThrow(/"true" would believe any caller's X-Forwarded-For/);
  });

  it("limits how long a request may take and how many connections may be open", () => {
    expect(readConfig({}).connections).toEqual({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 72_000, maxConnections: 1024 });
    expect(readConfig({ REQUEST_TIMEOUT_MS: "5000", MAX_CONNECTIONS: "50" }).connections).toMatchObject({ requestTimeoutMs: 5000, maxConnections: 50 });
    expect(() => readConfig({ MAX_CONNECTIONS: "0" })).toThrow("MAX_CONNECTIONS must be a whole number of at least 1");
  });

  it("keeps everything unless FRONTDESK_RETENTION_DAYS bounds the reviews, and waits 10 s for a dead process's lock unless told", () => {
    expect(readConfig({})).toMatchObject({ lockStaleMs: 10_000 });
    expect(readConfig({}).retentionDays).toBeUndefined();
    expect(readConfig({ FRONTDESK_RETENTION_DAYS: "30", FRONTDESK_LOCK_STALE_MS: "3000" })).toMatchObject({ retentionDays: 30, lockStaleMs: 3000 });
    expect(() => readConfig({ FRONTDESK_RETENTION_DAYS: "0" })).toThrow("FRONTDESK_RETENTION_DAYS must be a whole number of at least 1");
    expect(() => readConfig({ FRONTDESK_LOCK_STALE_MS: "500" })).toThrow("FRONTDESK_LOCK_STALE_MS must be a whole number of at least 2000");
  });

  it("warns at start when the public address is not https, as GPT Actions then refuse the document", () => {
    expect(publicAddressWarning(readConfig({}).publicBaseUrl)).toMatch(/^PUBLIC_BASE_URL is http:\/\/127\.0\.0\.1:3000: a custom GPT refuses to import/);
    expect(publicAddressWarning(readConfig({ PUBLIC_BASE_URL: "http://api.example.com" }).publicBaseUrl)).toContain("Set PUBLIC_BASE_URL to the public https address");
    expect(publicAddressWarning(readConfig({ PUBLIC_BASE_URL: "https://api.example.com" }).publicBaseUrl)).toBeUndefined();
  });
});
