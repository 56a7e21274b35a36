/**
 * The proxy command's flags for many users and many instances: `--user-header NAME` (env
 * SKYBOX_USER_HEADER), `--admin-users a,b`, `--user-daily-credits N` and `--redis URL`
 * (env SKYBOX_REDIS_URL). Flags win over the environment.
 */
import type { UserOptions } from "../proxy/users/user-options.ts";

export const USER_FLAGS = {
  "user-header": { type: "string" },
  "admin-users": { type: "string" },
  "user-daily-credits": { type: "string" },
  redis: { type: "string" },
} as const;

export interface UserFlagValues {
  "user-header"?: string | undefined;
  "admin-users"?: string | undefined;
  "user-daily-credits"?: string | undefined;
  redis?: string | undefined;
}

/**
 * The proxy options the flags and the environment give; `store` is a Redis store the caller
 * closes. The Redis client loads only when asked for: it is a third of a proxy's heap, and
 * every garbage collection walks the heap (a large download streams through a handful).
 */
export async function userOptionsOf(values: UserFlagValues, env: NodeJS.ProcessEnv): Promise<UserOptions> {
  const userHeader = values["user-header"] ?? env.SKYBOX_USER_HEADER;
  const credits = values["user-daily-credits"];
  if (credits !== undefined && !/^\d+$/.test(credits))
    throw new Error(`--user-daily-credits must be a whole number of credits, not ${credits}`);
  const redis = values.redis ?? env.SKYBOX_REDIS_URL;
  if (redis && !/^rediss?:\/\//.test(redis)) throw new Error(`--redis must be a redis:// or rediss:// URL, not ${redis}`);
  const admins = (values["admin-users"] ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  return {
    ...(userHeader ? { userHeader } : {}),
    ...(admins.length ? { adminUsers: admins } : {}),
    ...(credits !== undefined ? { userDailyCredits: Number(credits) } : {}),
    ...(redis ? { store: (await import("../proxy/store/redis-store.ts")).createRedisStore({ url: redis }) } : {}),
  };
}
