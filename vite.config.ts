import { defineConfig } from "vitest/config";

// The playground is the Vite root; tests live in test/ and run in Node (browser tests drive
// a real Chromium through playwright-core against built pages).
export default defineConfig({
  root: "playground",
  test: {
    root: ".",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
