import { createMemoryStore } from "../src/memory-store.ts";
import { storeContractTests } from "../src/testing/store-contract.ts";

storeContractTests(() => createMemoryStore(), { name: "memory" });
