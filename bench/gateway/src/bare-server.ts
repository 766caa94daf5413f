/**
 * The bare `node:http` server of the HTTP section, as a process of its own (the "from outside"
 * figure): the in-process bare server's handler (`bareHandler`), printing its URL the way `ask-user
 * start` prints its banner.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { bareHandler } from "./bare.ts";

const server = createServer(bareHandler);
server.listen(0, "127.0.0.1", () => {
  console.log(`HTTP API  http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
});
