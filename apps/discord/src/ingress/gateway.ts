/**
 * Who holds the gateway connection among the plugin's instances on one token. Discord sends every
 * dispatch to every connection (without sharding), so only the holder of the lease
 * `discord:<bot id>:gateway` in the shared store connects; the others send over REST. When the holder
 * stops it gives the lease up and another one connects within one renewal; when it dies, within about
 * ten seconds (the lease runs out, then the next renewal takes it).
 */
import { type Coordination, keepLease, type LeaseKeeper } from "@ask-user/core/channel";
import { LEASE_TTL_MS } from "../limits.ts";
import { createGatewayConnection, type GatewayConnectionOptions } from "./connection.ts";

export interface HoldGatewayOptions extends GatewayConnectionOptions {
  botId: string;
  coordination: Coordination;
  instanceId: string;
}

/** This instance's part in the lease; nothing connects before `start`, `stop` is safe to call twice. */
export function holdGateway(options: HoldGatewayOptions) {
  const { coordination, instanceId, logger } = options;
  const connection = createGatewayConnection(options);
  const lease = `discord:${options.botId}:gateway`;
  let keeper: LeaseKeeper | undefined;
  let started = false;
  return {
    /** Takes part in the lease; on the holder, resolves once the connection is READY. */
    async start(): Promise<void> {
      const first = await coordination.acquireLease(lease, instanceId, LEASE_TTL_MS);
      // The connection is opened here the first time (its errors are start's), by the keeper later.
      let initial = first ? connection.connect() : undefined;
      keeper = keepLease({
        coordination,
        name: lease,
        holder: instanceId,
        ttlMs: LEASE_TTL_MS,
        logger,
        onAcquired: () => {
          if (initial === undefined) connection.keepConnecting();
        },
        onLost: () => connection.close(),
      });
      await initial;
      initial = undefined;
      started = true;
    },
    async stop(): Promise<void> {
      await keeper?.stop();
      await connection.close();
    },
    /** `connected` (this instance holds the gateway), `rest` (another one does) or `idle` (not started). */
    get state(): "connected" | "rest" | "idle" {
      return connection.client ? "connected" : started ? "rest" : "idle";
    },
  };
}
