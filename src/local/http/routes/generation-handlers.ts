import type { Context } from "hono";
import { drawSeed, GenerateParams, type ParsedGenerateParams } from "../../../api/requests/generate-params.ts";
import { HistoryQuery, matchesStatus } from "../../../api/requests/list-queries.ts";
import { checkGeneration } from "../../../api/rules/generation-rules.ts";
import { MESSAGES } from "../../../api/rules/messages.ts";
import { PLAN_LIMITS } from "../../../api/rules/plans.ts";
import { catalogueStyleInfo } from "../../catalogue/style-json.ts";
import { findStyle } from "../../catalogue/styles.ts";
import { buildGeneration, insufficientCredits, priceOf } from "../../lifecycle/generation-factory.ts";
import { isActive } from "../../lifecycle/runner-deps.ts";
import type { Account } from "../../store/accounts.ts";
import type { GenerationEntity } from "../../store/entities.ts";
import type { ApiHandlers } from "../api-routes.ts";
import type { AppEnv, ServiceContext } from "../context.ts";
import { HttpError, notFound, ruleError } from "../http-error.ts";
import { bodyInput, queryInput } from "../lenient-input.ts";
import { paginate } from "../paginate.ts";
import type { Uploads } from "../../records/uploads.ts";

/** Fails with 503 while an operator has switched generation off. */
export function assertGenerationsEnabled(ctx: ServiceContext): void {
  if (ctx.settings.generationsDisabled) throw new HttpError(503, MESSAGES.generationsDisabled);
}

/** The generation `id` of the caller; another account's is reported as not found. */
function ownGeneration(ctx: ServiceContext, account: Account, id: string): GenerationEntity {
  const g = /^\d+$/.test(id) ? ctx.store.generations.get(Number(id)) : ctx.store.generationByObfuscatedId(id);
  if (!g || g.accountId !== account.id || g.deleted) throw notFound(`Skybox ${id} not found`);
  return g;
}

/**
 * A request's parameters as the generation uses them: the seed drawn when it asked for a
 * random one (0 or none), so the record reports the seed used; a remix source named by its
 * obfuscated id (`remix_imagine_obfuscated_id`, the Node SDK's) resolved to its id.
 */
export function resolveParams<P extends ParsedGenerateParams>(ctx: ServiceContext, account: Account, params: P): P {
  const seed = drawSeed(params.seed);
  const hash = params.remix_imagine_obfuscated_id;
  if (hash == null || params.remix_imagine_id != null) return { ...params, seed };
  const source = ctx.store.generationByObfuscatedId(hash);
  if (!source || source.accountId !== account.id || source.deleted) throw notFound(`remix_imagine_obfuscated_id: skybox ${hash} not found`);
  return { ...params, seed, remix_imagine_id: source.id };
}

function createGeneration(ctx: ServiceContext, uploads: Uploads, c: Context<AppEnv>, extra: Record<string, unknown> = {}) {
  assertGenerationsEnabled(ctx);
  const account = c.get("account");
  const params = resolveParams(ctx, account, bodyInput(ctx, c, GenerateParams, extra));
  const style = findStyle(params.skybox_style_id);
  if (!style) throw notFound(MESSAGES.styleNotFound);
  const issues = checkGeneration(params, { style: catalogueStyleInfo(style), plan: account.plan });
  if (issues.length) throw ruleError(issues);
  const pending = [...ctx.store.generations.values()].filter((g) => g.accountId === account.id && g.batchId === null && isActive(g)).length;
  const limit = PLAN_LIMITS[account.plan].pendingGenerations;
  if (pending >= limit) throw new HttpError(429, MESSAGES.pendingLimit(limit), { headers: { "retry-after": "10" } });
  const price = priceOf(params, style);
  if (account.credits < price) throw insufficientCredits(account, price);
  const g = buildGeneration(ctx.store, ctx.dataDir, uploads, { account, params, style });
  ctx.accounts.charge(account, price);
  ctx.generations.submit(g);
  return ctx.views.generation(g);
}

export const generationHandlers = (ctx: ServiceContext, uploads: Uploads) =>
  ({
    generate: (c) => c.json(createGeneration(ctx, uploads, c)),
    // Deprecated (spec "Versioning"): the style id may come in the path.
    legacyGenerate: (c, { id }) => c.json(createGeneration(ctx, uploads, c, { skybox_style_id: id })),

    history: (c) => {
      const q = queryInput(ctx, c, HistoryQuery);
      const account = c.get("account");
      const text = q.query?.toLowerCase();
      const items = [...ctx.store.generations.values()].filter((g) => {
        if (g.accountId !== account.id || g.deleted) return false;
        if (!matchesStatus(q.status, g.status)) return false;
        if (q.my_likes && !g.favorite) return false;
        if (q.imagine_id != null && g.id !== q.imagine_id) return false;
        if (q.skybox_style_id != null && g.styleId !== q.skybox_style_id) return false;
        if (q.api_key_id != null && account.apiKeyId !== q.api_key_id) return false;
        if (q.generator && `model ${findStyle(g.styleId)?.model}` !== q.generator.toLowerCase().replace(/^(\d)$/, "model $1")) return false;
        return !text || `${g.prompt} ${ctx.views.generation(g).title}`.toLowerCase().includes(text);
      });
      return c.json(
        paginate(
          items,
          (g) => g.id,
          q,
          (g) => ctx.views.generation(g),
        ),
      );
    },

    getGenerationByObfuscatedId: (c, { key }) => c.json({ request: ctx.views.generation(ownGeneration(ctx, c.get("account"), key)) }),
    getGeneration: (c, { id }) => c.json({ request: ctx.views.generation(ownGeneration(ctx, c.get("account"), id)) }),

    cancelAllPending: (c) => {
      const account = c.get("account");
      // "Pending" as users mean it: every generation not finished yet.
      const pending = [...ctx.store.generations.values()].filter((g) => g.accountId === account.id && isActive(g));
      if (!pending.length) return c.json({ error: "You don't have any pending generations to cancel." });
      pending.forEach((g) => ctx.generations.cancel(g));
      return c.json({ success: true, cancelled: pending.length });
    },
    cancelGeneration: (c, { id }) => {
      const g = ownGeneration(ctx, c.get("account"), id);
      if (!ctx.generations.cancel(g)) return c.json({ success: false, error: `Skybox ${g.id} has already finished (${g.status})` });
      return c.json({ success: true });
    },
    toggleFavorite: (c, { id }) => {
      const g = ownGeneration(ctx, c.get("account"), id);
      g.favorite = !g.favorite;
      ctx.store.changed(g);
      return c.json({ request: ctx.views.generation(g) });
    },
    deleteGeneration: (c, { id }) => {
      const g = ownGeneration(ctx, c.get("account"), id);
      ctx.generations.cancel(g);
      g.deleted = true;
      ctx.store.changed(g);
      return c.json({ success: "Item deleted successfully", id: String(g.id) });
    },
  }) satisfies Partial<ApiHandlers>;
