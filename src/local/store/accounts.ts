import { randomBytes } from "node:crypto";
import * as z from "zod";
import { PLAN_LIMITS } from "../../api/rules/plans.ts";
import { PLANS, type Plan } from "../../api/reference.ts";
import type { ChangeLog } from "./store-change.ts";

export const Account = z.strictObject({
  id: z.number().int().positive(),
  username: z.string().min(1),
  apiKey: z.string().min(8),
  /** Id of the key, as records' api_key_id. */
  apiKeyId: z.number().int().positive(),
  apiSecret: z.string().min(8),
  plan: z.enum(PLANS),
  credits: z.number().int().min(0),
  /** False: "You don't have an active subscription" (403). */
  subscriptionActive: z.boolean().default(true),
  /** Metered/overage billing: Model 4 batches are refused. */
  overage: z.boolean().default(false),
});
export type Account = z.infer<typeof Account>;

export const AccountsFile = z.strictObject({ accounts: z.array(Account) });

export interface NewAccount {
  username?: string;
  apiKey?: string;
  apiSecret?: string;
  plan?: Plan;
  credits?: number;
  subscriptionActive?: boolean;
  overage?: boolean;
}

const token = (bytes: number) => randomBytes(bytes).toString("hex");

/**
 * Accounts of the local service (stored by the data store: `<data-dir>/accounts.json`, which
 * a user may also edit by hand while the service is stopped). Keys are compared exactly;
 * nothing logs them.
 */
export class Accounts {
  constructor(
    private readonly _list: Account[],
    private readonly _log: ChangeLog,
  ) {}

  get all(): readonly Account[] {
    return this._list;
  }

  byKey(key: string): Account | undefined {
    return this._list.find((a) => a.apiKey === key);
  }

  byId(id: number): Account | undefined {
    return this._list.find((a) => a.id === id);
  }

  /** Adds an account, or updates the one with the same key (plan, secret, flags). */
  upsert(input: NewAccount): Account {
    const existing = input.apiKey ? this.byKey(input.apiKey) : undefined;
    if (existing) {
      Object.assign(
        existing,
        definedOnly({
          apiSecret: input.apiSecret,
          plan: input.plan,
          credits: input.credits,
          subscriptionActive: input.subscriptionActive,
          overage: input.overage,
          username: input.username,
        }),
      );
      this.persist(existing);
      return existing;
    }
    const id = Math.max(0, ...this._list.map((a) => a.id)) + 1;
    const plan = input.plan ?? "business";
    const account = Account.parse({
      id,
      username: input.username ?? `local-user-${id}`,
      apiKey: input.apiKey ?? token(20),
      apiKeyId: id,
      apiSecret: input.apiSecret ?? token(24),
      plan,
      credits: input.credits ?? PLAN_LIMITS[plan].monthlyCredits,
      subscriptionActive: input.subscriptionActive ?? true,
      overage: input.overage ?? false,
    });
    this._list.push(account);
    this.persist(account);
    return account;
  }

  /**
   * Charges credits; false (and nothing charged) when there are not enough. The charge is
   * written with the next record change the caller commits (the generation it pays for), so
   * that a crash keeps both or neither.
   */
  charge(account: Account, credits: number): boolean {
    if (account.credits < credits) return false;
    account.credits -= credits;
    this._log.stage({ accounts: [account] });
    return true;
  }

  /** Gives credits back; written, like a charge, with the record change committed next (its status). */
  refund(account: Account, credits: number): void {
    account.credits += credits;
    this._log.stage({ accounts: [account] });
  }

  private persist(account: Account): void {
    this._log.stage({ accounts: [account] });
    this._log.commit();
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
