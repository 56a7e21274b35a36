/**
 * How the published clients' typed models read the service's answers, written as zod
 * schemas (their rules, not their code). An answer a model could not read (a `null` where a
 * .NET model has a non-nullable `int`, `bool` or `DateTime`, an enum value it does not know)
 * fails here the way it throws there; a field the model does not have is ignored, as they
 * ignore it.
 */
import * as z from "zod";

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?(Z|[+-]\d{2}:\d{2})?$/;
const numericString = z.string().regex(/^-?\d+$/);

/**
 * System.Text.Json with the .NET SDK's options (`NumberHandling.AllowReadingFromString`):
 * a missing property keeps its default; `null` for a non-nullable value type throws.
 */
export const stj = {
  int: z.union([z.number().int(), numericString]).optional(),
  nullableInt: z.union([z.number().int(), numericString, z.null()]).optional(),
  string: z.string().nullable().optional(),
  /** `bool` without a converter reads only `true` and `false`. */
  bool: z.boolean().optional(),
  /** The SDK's `BoolConverter`: true/false, a number, or a string `bool.TryParse` reads. */
  boolConverter: z.union([z.boolean(), z.number(), z.string()]).optional(),
  /** `DateTime`: an ISO 8601 string; `null` throws. */
  date: z.string().regex(ISO_8601).optional(),
  /** The SDK's enum converter: an unknown string reads as the default value. */
  enum: z.union([z.string(), z.number(), z.null()]).optional(),
  dict: z.record(z.string(), z.string()).nullable().optional(),
};

/**
 * Newtonsoft.Json as the Unity packages use it (constructor parameters, `StringEnumConverter`):
 * a missing property is the parameter's default; `null` for a non-nullable value type throws;
 * numbers also read from numeric strings, booleans also from 0/1; an enum value must be one
 * of its names (any case) or `EnumMember` values.
 */
export const newtonsoft = {
  int: z.union([z.number().int(), numericString]).optional(),
  nullableInt: z.union([z.number().int(), numericString, z.null()]).optional(),
  string: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  bool: z.union([z.boolean(), z.literal([0, 1]), z.enum(["true", "false", "True", "False"])]).optional(),
  date: z.string().regex(ISO_8601).optional(),
  enumOf: (values: readonly string[]) =>
    z
      .string()
      .refine((v) => values.some((e) => e.toLowerCase() === v.toLowerCase()), { error: "not a value of the enum" })
      .optional(),
  dict: z.record(z.string(), z.string()).nullable().optional(),
};

/** The two SDKs' `Status` and `SkyboxModel` enums (the model enum knows Models 2 and 3 only). */
const STATUS = ["All", "Pending", "Dispatched", "Processing", "Complete", "Abort", "Error"];
const MODEL = ["Model 2", "Model 3", "Model2", "Model3"];

/** BlockadeLabs-SDK-DotNet 2.0.0, Skyboxes/SkyboxInfo.cs */
export const DotnetSkyboxInfo = z.looseObject({
  id: stj.int,
  obfuscated_id: stj.string,
  skybox_style_id: stj.int,
  skybox_style_name: stj.string,
  model: stj.enum,
  status: stj.enum,
  type: stj.string,
  queue_position: stj.int,
  file_url: stj.string,
  thumb_url: stj.string,
  depth_map_url: stj.string,
  title: stj.string,
  prompt: stj.string,
  negative_text: stj.string,
  seed: stj.int,
  remix_imagine_id: stj.nullableInt,
  remix_obfuscated_id: stj.string,
  isMyFavorite: stj.bool,
  created_at: stj.date,
  updated_at: stj.date,
  dispatched_at: stj.date,
  processing_at: stj.date,
  completed_at: stj.date,
  error_message: stj.string,
  pusher_channel: stj.string,
  pusher_event: stj.string,
  exports: stj.dict,
});

/** BlockadeLabs-SDK-DotNet 2.0.0, Skyboxes/SkyboxStyle.cs (families nest styles in `items`). */
export const DotnetSkyboxStyle: z.ZodType = z.lazy(() =>
  z.looseObject({
    name: stj.string,
    id: stj.int,
    type: stj.string,
    description: stj.string,
    "max-char": stj.nullableInt,
    "negative-text-max-char": stj.nullableInt,
    image: stj.string,
    sort_order: stj.int,
    premium: stj.boolConverter,
    new: stj.boolConverter,
    experimental: stj.boolConverter,
    status: stj.string,
    model: stj.enum,
    model_version: stj.nullableInt,
    items: z.array(DotnetSkyboxStyle).nullable().optional(),
  }),
);

/** BlockadeLabs-SDK-DotNet 2.0.0, Skyboxes/SkyboxExportRequest.cs */
export const DotnetExportRequest = z.looseObject({
  id: stj.string,
  file_url: stj.string,
  skybox_obfuscated_id: stj.string,
  type: stj.string,
  type_id: stj.int,
  status: stj.enum,
  queue_position: stj.int,
  error_message: stj.string,
  pusher_channel: stj.string,
  pusher_event: stj.string,
  webhook_url: stj.string,
  created_at: stj.date,
});

/** BlockadeLabs-SDK-DotNet 2.0.0, Skyboxes/SkyboxExportOption.cs */
export const DotnetExportOption = z.looseObject({ name: stj.string, id: stj.int, key: stj.string, isPremium: stj.bool });

/** BlockadeLabs-SDK-DotNet 2.0.0, Skyboxes/SkyboxHistory.cs */
export const DotnetHistory = z.looseObject({ totalCount: stj.int, has_more: stj.bool, data: z.array(DotnetSkyboxInfo) });

/** BlockadeLabs-SDK-DotNet 2.0.0, SkyboxEndpoint.cs `SkyboxOperation` (`StringOrObjectConverter<bool>`: a number throws). */
export const DotnetOperation = z.looseObject({
  success: z.union([z.string(), z.boolean(), z.null(), z.looseObject({})]).optional(),
  error: stj.string,
});

/** `{ request }` or `{ imagine }` around a record (both .NET and Unity unwrap either). */
export const wrapped = <T extends z.ZodType>(record: T) =>
  z.union([z.looseObject({ request: record }), z.looseObject({ imagine: record })]);

/** com.rest.blockadelabs 2.0.0 and the official Unity SDK 2.0.2, Skyboxes/SkyboxInfo.cs */
export const UnitySkyboxInfo = z.looseObject({
  id: newtonsoft.int,
  obfuscated_id: newtonsoft.string,
  skybox_style_id: newtonsoft.int,
  skybox_style_name: newtonsoft.string,
  model: newtonsoft.enumOf(MODEL),
  status: newtonsoft.enumOf(STATUS),
  type: newtonsoft.string,
  queue_position: newtonsoft.int,
  file_url: newtonsoft.string,
  thumb_url: newtonsoft.string,
  depth_map_url: newtonsoft.string,
  title: newtonsoft.string,
  prompt: newtonsoft.string,
  negative_text: newtonsoft.string,
  seed: newtonsoft.int,
  remix_imagine_id: newtonsoft.nullableInt,
  remix_obfuscated_id: newtonsoft.string,
  isMyFavorite: newtonsoft.bool,
  created_at: newtonsoft.date,
  updated_at: newtonsoft.date,
  dispatched_at: newtonsoft.date,
  processing_at: newtonsoft.date,
  completed_at: newtonsoft.date,
  error_message: newtonsoft.string,
  pusher_channel: newtonsoft.string,
  pusher_event: newtonsoft.string,
  api_key_id: newtonsoft.nullableInt,
  exports: newtonsoft.dict,
});

/** Unity SDKs, Skyboxes/SkyboxStyle.cs (`skybox_style_families` in com.rest.blockadelabs). */
export const UnitySkyboxStyle: z.ZodType = z.lazy(() =>
  z.looseObject({
    name: newtonsoft.string,
    id: newtonsoft.int,
    type: newtonsoft.string,
    description: newtonsoft.string,
    "max-char": newtonsoft.nullableInt,
    "negative-text-max-char": newtonsoft.nullableInt,
    image: newtonsoft.string,
    image_jpg: newtonsoft.string,
    sort_order: newtonsoft.int,
    premium: newtonsoft.bool,
    new: newtonsoft.bool,
    experimental: newtonsoft.bool,
    status: newtonsoft.string,
    model: z.union([newtonsoft.enumOf(MODEL), z.null()]).optional(),
    model_version: newtonsoft.nullableInt,
    skybox_style_families: z
      .array(z.looseObject({ id: newtonsoft.int, name: newtonsoft.string }))
      .nullable()
      .optional(),
    items: z.array(UnitySkyboxStyle).nullable().optional(),
  }),
);

/** Unity SDKs, Skyboxes/SkyboxExportRequest.cs */
export const UnityExportRequest = z.looseObject({
  id: newtonsoft.string,
  file_url: newtonsoft.string,
  skybox_obfuscated_id: newtonsoft.string,
  type: newtonsoft.string,
  type_id: newtonsoft.int,
  status: newtonsoft.enumOf(STATUS),
  queue_position: newtonsoft.int,
  error_message: newtonsoft.string,
  pusher_channel: newtonsoft.string,
  pusher_event: newtonsoft.string,
  webhook_url: newtonsoft.string,
  created_at: newtonsoft.date,
});

/** Unity SDKs, Skyboxes/SkyboxExportOption.cs */
export const UnityExportOption = z.looseObject({
  id: newtonsoft.int,
  name: newtonsoft.string,
  key: newtonsoft.string,
  isPremium: newtonsoft.bool,
});

/** Unity SDKs, Skyboxes/SkyboxHistory.cs */
export const UnityHistory = z.looseObject({ data: z.array(UnitySkyboxInfo), totalCount: newtonsoft.int, has_more: newtonsoft.bool });

/** Unity SDKs, SkyboxEndpoint.cs `SkyboxOperation`: `success` read into a string (`true` becomes "true"). */
export const UnityOperation = z.looseObject({ success: z.union([z.string(), z.boolean(), z.null()]).optional(), error: newtonsoft.string });

/** Reads `value` with a client's model, or throws naming the client's field that could not be read. */
export function readAs<T extends z.ZodType>(model: T, value: unknown, what: string): z.output<T> {
  const parsed = model.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${JSON.stringify(pathValue(value, i.path))})`);
  throw new Error(`${what} cannot read the answer: ${problems.join("; ")}`);
}

function pathValue(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined), value);
}
