import { expect, test } from "vitest";
import { GenerateParams } from "../../../src/api/requests/generate-params.ts";
import { HistoryQuery } from "../../../src/api/requests/list-queries.ts";
import { HttpError } from "../../../src/local/http/http-error.ts";
import { parseApiInput } from "../../../src/local/http/lenient-input.ts";

test("unknown fields are dropped and named for the debug log (the key is not one of them); known ones are checked", () => {
  const ignored: string[][] = [];
  const params = parseApiInput(
    GenerateParams,
    { prompt: "p", skybox_style_id: "2", enhance_prompt: "True", colour: "red", api_key: "k" },
    (names) => ignored.push(names),
  );
  expect(params).toEqual({ prompt: "p", skybox_style_id: 2, enhance_prompt: true });
  expect(ignored).toEqual([["colour"]]);
  expect(parseApiInput(HistoryQuery, { status: "all", my_likes: "ON", order: "desc" }, () => {})).toEqual({
    status: "all",
    my_likes: true,
    order: "DESC",
  });
});

test("a wrong value is a 422 whose message names the field and what it must be", () => {
  const error = (() => {
    try {
      parseApiInput(GenerateParams, { prompt: "p", skybox_style_id: 2, enhance_prompt: "maybe", seed: -1 }, () => {});
    } catch (e) {
      return e;
    }
  })() as HttpError;
  expect(error.status).toBe(422);
  expect(error.message).toBe(
    'seed: must be an integer from 0 to 2147483647 (is -1); enhance_prompt: expected a boolean (true/false, 1/0 or on/off) (is "maybe")',
  );
  expect(error.body.issues?.map((i) => i.path[0])).toEqual(["seed", "enhance_prompt"]);
});
