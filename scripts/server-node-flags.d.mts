/** The V8 flags the server runs with (scripts/server-node-flags.mjs). */
export declare const serverNodeFlags: readonly string[];
