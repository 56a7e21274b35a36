import { describe, expect, it } from "vitest";
import { enhancePrompt } from "../../../../src/local/imagery/prompt/enhance-prompt.ts";
import { type PromptInput, sceneFromPrompt } from "../../../../src/local/imagery/prompt/prompt-scene.ts";

const input = (prompt: string, more: Partial<PromptInput> = {}): PromptInput => ({
  prompt,
  negativeText: null,
  seed: 5,
  look: "photoreal",
  model: 4,
  variant: "standard",
  softLines: false,
  ...more,
});

describe("sceneFromPrompt", () => {
  it("follows the words for time, weather and ground", () => {
    const s = sceneFromPrompt(input("snowy mountains above a lake at sunset, stormy"));
    expect([s.relief, s.water?.kind, s.time, s.weather]).toEqual(["mountains", "lake", "sunset", "storm"]);
    expect(s.snowline).not.toBeNull();
    expect(s.sun.elevation).toBeGreaterThan(0);
    expect(s.sun.elevation).toBeLessThan(8);
    expect(sceneFromPrompt(input("desert dunes at noon")).relief).toBe("dunes");
    expect(sceneFromPrompt(input("grand canyon")).relief).toBe("canyon");
    expect(sceneFromPrompt(input("a city skyline")).city).not.toBeNull();
    expect(sceneFromPrompt(input("tropical beach")).water?.kind).toBe("ocean");
    expect(sceneFromPrompt(input("foggy forest")).cover).toBe("forest");
    expect(sceneFromPrompt(input("foggy forest")).weather).toBe("fog");
  });

  it("puts the moon and stars in night skies", () => {
    const s = sceneFromPrompt(input("hills at night"));
    expect(s.time).toBe("night");
    expect(s.stars).toBe(1);
    expect(s.moon.visible && s.moon.elevation > 0).toBe(true);
    expect(s.sun.elevation).toBeLessThan(-14);
  });

  it("makes space scenes without ground, with nebulae and planets when asked", () => {
    const s = sceneFromPrompt(input("a nebula in deep space with a giant planet"));
    expect(s.relief).toBe("none");
    expect(s.nebula).not.toBeNull();
    expect(s.planets.length).toBeGreaterThan(0);
    // Naming a ground keeps it: planets then hang in a landscape's sky.
    expect(sceneFromPrompt(input("alien desert under a ringed planet")).relief).not.toBe("none");
  });

  it("removes what negativeText names", () => {
    const s = sceneFromPrompt(input("cloudy mountains at sunset with a lake", { negativeText: "mountains, clouds, sun, water" }));
    expect(s.relief).not.toBe("mountains");
    expect(s.clouds).toBeNull();
    expect(s.sun.visible).toBe(false);
    expect(s.water).toBeNull();
  });

  it("chooses a coherent landscape for prompts it does not understand, varied by seed", () => {
    const scenes = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => sceneFromPrompt(input("the feeling of a quiet memory", { seed })));
    for (const s of scenes) {
      expect(s.relief).not.toBe("none");
      expect(s.elements.length).toBeGreaterThan(1);
    }
    expect(new Set(scenes.map((s) => `${s.relief}/${s.cover}/${s.time}`)).size).toBeGreaterThan(3);
  });

  it("is a pure function of the request", () => {
    expect(sceneFromPrompt(input("ocean at dawn"))).toEqual(sceneFromPrompt(input("ocean at dawn")));
  });

  it("keeps a base scene and changes only what the new prompt names (remix, edit)", () => {
    const base = sceneFromPrompt(input("snowy mountains above a lake at sunset"));
    const night = sceneFromPrompt(input("at night", { seed: 9 }), base);
    expect([night.relief, night.water?.kind, night.snowline]).toEqual([base.relief, base.water?.kind, base.snowline]);
    expect(night.time).toBe("night");
    expect(night.seed).toBe(9);
  });
});

describe("enhancePrompt", () => {
  it("expands a short prompt into a longer description naming the scene's elements", () => {
    const s = sceneFromPrompt(input("mountains at sunset", { look: "watercolor" }));
    const text = enhancePrompt(s);
    expect(text.length).toBeGreaterThan(3 * "mountains at sunset".length);
    expect(text).toMatch(/mountain/);
    expect(text).toMatch(/sunset/);
    expect(text).toMatch(/watercolor/);
    expect(enhancePrompt(s)).toBe(text);
  });
});
