/**
 * Who holds the gateway connection among the plugin's instances on one token. Discord sends every
 * dispatch to every connection (without sharding), so only the holder of the lease
 * `discord:<bot id>:gateway` in the shared store connects; the others send over REST. When the holder
 * stops it gives the lease up and another one connects within one renewal; when it dies, within about
 * ten seconds (the lease runs out, then the next renewal takes it).
 */
import { type ChannelLogger, type Coordination, keepLease, type LeaseKeeper } from "@ask-user/core/channel";
import type { Client } from "discord.js";
import { LEASE_TTL_MS } from "../limits.ts";
import { createGatewayConnection } from "./connection.ts";

/** Options of {@link holdGateway}. */
export interface HoldGatewayOptions {
  /** The stable client: every event of the connection is re-emitted on it. */
  hub: Client;
  token: string;
  apiUrl: string | undefined;
  botId: string;
  coordination: Coordination;
  instanceId: string;
  logger: ChannelLogger;
  /** Called once when Discord refuses the Message Content intent. */
  onNoMessageContent(): void;
}

/** This instance's part in the gateway lease. */
export interface GatewayHold {
  /** Takes part in the lease; on the holder, resolves once the connection is READY. */
  start(): Promise<void>;
  /** Gives the lease up and closes the connection (bounded); safe to call twice. */
  stop(): Promise<void>;
  /** `connected` (this instance holds the gateway), `rest` (another one does) or `idle` (not started). */
  readonly state: "connected" | "rest" | "idle";
}

/** See the module comment. Nothing connects before `start`. */
export function holdGateway(options: HoldGatewayOptions): GatewayHold {
  const { coordination, instanceId, logger } = options;
  const connection = createGatewayConnection(options);
  const lease = `discord:${options.botId}:gateway`;
  let keeper: LeaseKeeper | undefined;
  let started = false;
  return {
    async start() {
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
    async stop() {
      await keeper?.stop();
      await connection.close();
    },
    get state() {
      return connection.client ? "connected" : started ? "rest" : "idle";
    },
  };
}
