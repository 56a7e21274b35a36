/**
 * negativeText: every concept it names is removed from the resolved scene.
 */
import type { Concept } from "./prompt-words.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";

export function applyNegatives(scene: SceneSpec, negatives: Set<Concept>): void {
  const no = (c: Concept): boolean => negatives.has(c);
  if (no("cloudy") || no("overcast") || no("storm") || no("cirrus")) {
    scene.clouds = null;
    if (scene.weather !== "fog") scene.weather = "clear";
  }
  if (no("fog")) scene.fog = Math.min(scene.fog, 0.03);
  if (no("sun")) scene.sun.visible = false;
  if (no("moon")) scene.moon.visible = false;
  if (no("stars")) {
    scene.stars = 0;
    scene.milkyWay = 0;
  }
  if (no("mountains") && (scene.relief === "mountains" || scene.relief === "canyon")) {
    scene.relief = "hills";
    scene.reliefHeight = 90;
    scene.snowline = null;
    scene.camera = { ground: 25, eye: 1.8 };
  }
  if (no("ocean") || no("lake")) scene.water = null;
  if (no("city")) scene.city = null;
  if ((no("forest") || no("autumn")) && (scene.cover === "forest" || scene.cover === "autumn")) scene.cover = "grass";
  if (no("snow")) {
    scene.snowline = null;
    if (scene.cover === "snow") scene.cover = "grass";
  }
  if (no("dunes") && scene.relief === "dunes") scene.relief = "hills";
  if (no("planets")) scene.planets = [];
  if (no("nebula")) scene.nebula = null;
  if (no("aurora")) scene.aurora = 0;
}
