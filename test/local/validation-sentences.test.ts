/**
 * Every 4xx answer to bad input says, in its `error` text, which field broke which rule:
 * bad values of every field of the generation, batch, export and list routes, sent to the
 * local service as a client would, in JSON and in a form.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BatchParams, ExportParams, GenerateParams, HistoryQuery, SEED_MAX } from "../../src/api/index.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";

let svc: LocalProcess;
beforeAll(async () => {
  svc = await startLocalProcess();
});
afterAll(() => svc.stop());

const BAD_VALUES: unknown[] = ["abc", -5, 3.7, "1e3", 99_999_999_999, "", { a: 1 }, [1, 2], true, -1e9];

interface Answer {
  status: number;
  error: string;
  issues: { path: string[] }[];
}
async function send(method: string, path: string, body?: Record<string, unknown>, form = false): Promise<Answer> {
  const headers: Record<string, string> = { "x-api-key": svc.info.apiKey };
  let payload: BodyInit | undefined;
  if (body && form) payload = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  else if (body) {
    payload = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${svc.info.url}/api/v1${path}`, { method, headers, ...(payload ? { body: payload } : {}) });
  const json = (await response.json()) as { error?: string; issues?: { path: string[] }[] };
  return { status: response.status, error: json.error ?? "", issues: json.issues ?? [] };
}

/** `seed: …`, or a spec sentence that names its field in words ("Quantity must be a positive integer."). */
const names = (error: string, field: string) => error.includes(`${field}:`) || error.toLowerCase().includes(field.replace(/_/g, " "));

/** Validation answers (400, 422): each names every field it has an issue with, in its sentence. */
const isValidation = (a: Answer) => a.status === 400 || a.status === 422;
function unnamedFields(answers: Answer[]): string[] {
  return answers
    .filter(isValidation)
    .flatMap((a) =>
      (a.issues.length ? a.issues : [{ path: [] }])
        .filter((i) => !i.path.length || !names(a.error, i.path.join(".")))
        .map(() => `${a.status} ${a.error}`),
    );
}

describe("4xx answers name their field and rule", () => {
  test("the issue's own example", async () => {
    const a = await send("POST", "/skybox", { prompt: "p", skybox_style_id: 2, seed: -5 });
    expect(a.status).toBe(422);
    expect(a.error).toBe(`seed: must be an integer from 0 to ${SEED_MAX} (is -5)`);
    expect((await send("POST", "/skybox", { prompt: "p", skybox_style_id: 2, seed: 3.7 })).error).toBe(
      `seed: must be an integer from 0 to ${SEED_MAX} (is 3.7)`,
    );
    expect((await send("POST", "/skybox", { prompt: "p", skybox_style_id: 2, init_strength: "x" })).error).toBe(
      'init_strength: must be a number (is "x")',
    );
    expect((await send("POST", "/skybox", { skybox_style_id: 2 })).error).toBe("prompt: is required");
  });

  test.each([
    ["POST", "/skybox", GenerateParams.shape, { prompt: "alpine lake", skybox_style_id: 2 }],
    ["POST", "/skybox/batch", BatchParams.shape, { prompt: "alpine lake", skybox_style_id: 2, quantity: 2 }],
    ["POST", "/skybox/export", ExportParams.shape, { skybox_id: "0123456789abcdef0123456789abcdef", type_id: 1 }],
  ] as const)(
    "%s %s: every field with every bad value, as JSON and as a form",
    async (method, path, shape, base) => {
      const answers: Answer[] = [];
      for (const field of Object.keys(shape).filter((f) => f !== "webhook_url" || path !== "/skybox/batch"))
        for (const value of BAD_VALUES)
          for (const form of [false, true]) answers.push(await send(method, path, { ...base, [field]: value }, form));
      const refused = answers.filter(isValidation);
      expect(refused.length).toBeGreaterThan(20);
      expect(unnamedFields(answers)).toEqual([]);
      expect(refused.filter((a) => /Invalid input/.test(a.error))).toEqual([]);
    },
    120_000,
  );

  test("history queries: every field with every bad value", async () => {
    const answers: Answer[] = [];
    for (const field of Object.keys(HistoryQuery.shape))
      for (const value of BAD_VALUES)
        answers.push(await send("GET", `/imagine/myRequests?${new URLSearchParams({ [field]: String(value) })}`));
    expect(answers.some((a) => a.status === 422)).toBe(true);
    expect(unnamedFields(answers)).toEqual([]);
  }, 60_000);
});
