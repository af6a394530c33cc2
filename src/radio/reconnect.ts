/** How fast a lost rig connection is retried (USB or Wi-Fi): from base_ms, doubling, up to max_ms. */
export const RECONNECT = { base_ms: 500, max_ms: 10_000 } as const;
