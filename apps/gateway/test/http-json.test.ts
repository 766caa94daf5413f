/**
 * What every JSON answer of the API looks like on the wire, whichever way it was made (a created
 * question, an answer, an error from a route, a 404 and a 405 from the route guard, a 401 with its
 * `WWW-Authenticate`): JSON with its charset, never kept by a cache, with a `Content-Length`.
 */
import { describe, expect, it } from "vitest";
import { deployInput, testGateway } from "./harness.ts";

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function wire(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    cache: response.headers.get("cache-control"),
    length: Number(response.headers.get("content-length")),
    bytes: Buffer.byteLength(text),
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

const JSON_ANSWER = { type: "application/json; charset=utf-8", cache: "no-store" };

describe("JSON answers on the wire", () => {
  it("carry the JSON type with its charset, no-store and their exact length, on success and on error", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: "s3cret-token-for-the-test" });
    const auth = { authorization: "Bearer s3cret-token-for-the-test" };
    const created = await wire(await post(`${gw.url}/v1/questions`, deployInput, auth));
    expect(created).toMatchObject({ status: 201, ...JSON_ANSWER });
    expect(created.length).toBe(created.bytes);
    const id = String(created.body.id);

    const answered = await wire(
      await post(`${gw.url}/v1/questions/${id}/answer`, { answers: { deploy_target: ["Production"] } }, auth),
    );
    expect(answered).toMatchObject({ status: 200, ...JSON_ANSWER, body: { id, status: "answered" } });
    expect(answered.length).toBe(answered.bytes);

    const again = await wire(
      await post(`${gw.url}/v1/questions/${id}/answer`, { answers: { deploy_target: ["Staging"] } }, auth),
    );
    expect(again).toMatchObject({ status: 409, ...JSON_ANSWER, body: { error: { code: "answered" } } });

    const missing = await wire(await fetch(`${gw.url}/v1/nothing`, { headers: auth }));
    expect(missing).toMatchObject({ status: 404, ...JSON_ANSWER, body: { error: { code: "not_found" } } });

    const wrongMethod = await fetch(`${gw.url}/v1/questions/${id}/answer`, { headers: auth });
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    expect(await wire(wrongMethod)).toMatchObject({ status: 405, ...JSON_ANSWER });

    const noToken = await post(`${gw.url}/v1/questions`, deployInput);
    expect(noToken.headers.get("www-authenticate")).toBe('Bearer realm="ask-user"');
    expect(await wire(noToken)).toMatchObject({ status: 401, ...JSON_ANSWER });
  });
});
