import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, sqliteInstanceId } from "../src/config.ts";

function problems(env: Record<string, string>, channels: string[] = []): string[] {
  try {
    loadConfig(env, channels);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe("configuration from the environment", () => {
  it("needs nothing: loopback on 7310, SQLite under .ask-user", () => {
    expect(loadConfig({}, [])).toEqual({
      host: "127.0.0.1",
      port: 7310,
      dbPath: ".ask-user/ask-user.db",
      retentionDays: 30,
      token: undefined,
      allowedHosts: [],
      defaultTarget: undefined,
      locale: "en",
      answerers: "creator",
      logLevel: "info",
      claimSeconds: 30,
      instanceId: sqliteInstanceId(".ask-user/ask-user.db"),
      instanceIdDerived: true,
      mcpMemoryMb: undefined,
    });
  });

  it("names the instance after its SQLite file by default: the same at every start, another per file", () => {
    const first = loadConfig({ ASK_USER_DB: "/var/lib/ask-user/a.db" }, []);
    expect(first.instanceId).toMatch(/^sqlite-[0-9a-f]{16}$/);
    expect(loadConfig({ ASK_USER_DB: "/var/lib/ask-user/a.db" }, []).instanceId).toBe(first.instanceId);
    expect(loadConfig({ ASK_USER_DB: "/var/lib/ask-user/../ask-user/a.db" }, []).instanceId).toBe(
      first.instanceId,
    );
    expect(loadConfig({ ASK_USER_DB: "/var/lib/ask-user/b.db" }, []).instanceId).not.toBe(first.instanceId);
    // A relative path is the file under the working directory.
    expect(loadConfig({ ASK_USER_DB: "x.db" }, []).instanceId).toBe(
      sqliteInstanceId(`${process.cwd()}/x.db`),
    );
  });

  it("keeps a set ASK_USER_INSTANCE_ID, and a random one per start with Redis or an in-memory database", () => {
    expect(loadConfig({ ASK_USER_INSTANCE_ID: "gw-1" }, [])).toMatchObject({
      instanceId: "gw-1",
      instanceIdDerived: false,
    });
    for (const env of [{ ASK_USER_REDIS_URL: "redis://127.0.0.1:6379" }, { ASK_USER_DB: ":memory:" }]) {
      expect(loadConfig(env, [])).toMatchObject({ instanceId: undefined, instanceIdDerived: false });
    }
  });

  it("reads the MCP memory budget in MiB and refuses one that is not a whole number from 1", () => {
    expect(loadConfig({ ASK_USER_MCP_MEMORY_MB: "64" }, []).mcpMemoryMb).toBe(64);
    for (const value of ["0", "1.5", "lots"]) {
      expect(() => loadConfig({ ASK_USER_MCP_MEMORY_MB: value }, [])).toThrow(
        `ASK_USER_MCP_MEMORY_MB must be a whole number of MiB of at least 1 (default 512), not "${value}".`,
      );
    }
  });

  it("refuses a claim time that is not 1-3600 whole seconds", () => {
    for (const value of ["0", "1.5", "abc", "3601"]) {
      expect(() => loadConfig({ ASK_USER_CLAIM_SECONDS: value }, [])).toThrow(
        `ASK_USER_CLAIM_SECONDS must be a whole number of seconds from 1 to 3600, not "${value}".`,
      );
    }
    expect(loadConfig({ ASK_USER_CLAIM_SECONDS: "2" }, []).claimSeconds).toBe(2);
  });

  it("reads every variable", () => {
    const config = loadConfig(
      {
        ASK_USER_HOST: "0.0.0.0",
        ASK_USER_PORT: "8080",
        ASK_USER_DB: "/var/lib/ask-user/db.sqlite",
        ASK_USER_TOKEN: "a-long-enough-secret-token",
        ASK_USER_DEFAULT_TARGET: "telegram:123456",
        ASK_USER_LOCALE: "de-AT",
        ASK_USER_ANSWERERS: "conversation",
        ASK_USER_LOG_LEVEL: "debug",
        ASK_USER_ALLOWED_HOSTS: " Ask.Example.org, panel.local ",
      },
      ["telegram", "text"],
    );
    expect(config).toMatchObject({
      allowedHosts: ["ask.example.org", "panel.local"],
      host: "0.0.0.0",
      port: 8080,
      defaultTarget: { channel: "telegram", conversation: "123456" },
      locale: "de",
      answerers: "conversation",
    });
  });

  it("lists every problem at once, one message per variable", () => {
    expect(
      problems({
        ASK_USER_HOST: "0.0.0.0",
        ASK_USER_PORT: "seventy",
        ASK_USER_DEFAULT_TARGET: "telegram:1",
        ASK_USER_LOCALE: "fr",
        ASK_USER_ANSWERERS: "everyone",
        ASK_USER_LOG_LEVEL: "loud",
        ASK_USER_RETENTION_DAYS: "a month",
      }),
    ).toEqual([
      'ASK_USER_PORT must be a port number (0-65535), not "seventy".',
      "ASK_USER_HOST=0.0.0.0 is reachable from other machines: set ASK_USER_TOKEN too, or bind to 127.0.0.1.",
      'ASK_USER_DEFAULT_TARGET names the channel "telegram", which is not configured (running: none).',
      'ASK_USER_LOCALE must be "en" or "de", not "fr".',
      'ASK_USER_ANSWERERS must be "creator" or "conversation", not "everyone".',
      'ASK_USER_RETENTION_DAYS must be a whole number of days (0 keeps questions forever), not "a month".',
      "ASK_USER_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent.",
    ]);
  });

  it("refuses a short token and a malformed default target", () => {
    expect(problems({ ASK_USER_TOKEN: "short", ASK_USER_DEFAULT_TARGET: "telegram" })).toEqual([
      "ASK_USER_TOKEN must be at least 16 characters long (use a random string).",
      'ASK_USER_DEFAULT_TARGET must look like "telegram:123456" (channel:conversation), not "telegram".',
    ]);
  });

  it("allows any loopback address without a token", () => {
    for (const host of ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
      expect(problems({ ASK_USER_HOST: host })).toEqual([]);
  });
});
