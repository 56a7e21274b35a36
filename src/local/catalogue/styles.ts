import type { Look } from "../imagery/contract.ts";

/** A style of the local catalogue: what the API shows, plus the renderer look it maps to. */
export interface CatalogueStyle {
  id: number;
  name: string;
  description: string;
  model: 3 | 4;
  familyId: number;
  look: Look;
  maxChar: number;
  negativeMaxChar: number;
  sortOrder: number;
  premium: boolean;
  isNew: boolean;
  experimental: boolean;
  /** Prompt of the style's preview image. */
  previewPrompt: string;
}

export interface CatalogueFamily {
  id: number;
  name: string;
  sortOrder: number;
}

export const FAMILIES: readonly CatalogueFamily[] = [
  { id: 1, name: "Realism", sortOrder: 1 },
  { id: 2, name: "Painting", sortOrder: 2 },
  { id: 3, name: "Illustration", sortOrder: 3 },
  { id: 4, name: "Stylized", sortOrder: 4 },
  { id: 5, name: "Model 4", sortOrder: 0 },
];

const m3 = (
  id: number,
  name: string,
  familyId: number,
  look: Look,
  sortOrder: number,
  previewPrompt: string,
  extra: Partial<CatalogueStyle> = {},
): CatalogueStyle => ({
  id,
  name,
  description: `${name} (Model 3)`,
  model: 3,
  familyId,
  look,
  maxChar: 600,
  negativeMaxChar: 200,
  sortOrder,
  premium: false,
  isNew: false,
  experimental: false,
  previewPrompt,
  ...extra,
});
const m4 = (
  id: number,
  name: string,
  look: Look,
  sortOrder: number,
  previewPrompt: string,
  extra: Partial<CatalogueStyle> = {},
): CatalogueStyle => ({
  id,
  name,
  description: `${name} (Model 4, natively 4K)`,
  model: 4,
  familyId: 5,
  look,
  maxChar: 1000,
  negativeMaxChar: 400,
  sortOrder,
  premium: true,
  isNew: true,
  experimental: false,
  previewPrompt,
  ...extra,
});

/** The catalogue: Model 3 styles in four families, Model 4 styles with Standard and Enhanced variants. */
export const STYLES: readonly CatalogueStyle[] = [
  m3(2, "Realistic", 1, "photoreal", 1, "alpine lake at sunset with snowy mountains"),
  m3(3, "Cinematic", 1, "photoreal", 2, "stormy ocean at dusk", { maxChar: 550 }),
  m3(5, "Digital Painting", 2, "painterly", 1, "misty forest hills at dawn"),
  m3(6, "Watercolor", 2, "watercolor", 2, "desert dunes at noon", { negativeMaxChar: 150 }),
  m3(7, "Oil Painting", 2, "painterly", 3, "canyon at sunset"),
  m3(9, "Anime Art Style", 3, "anime", 1, "city skyline at night with stars"),
  m3(10, "Fantasy Landscape", 3, "digital-art", 2, "snowy mountains under a nebula", { isNew: true }),
  m3(11, "Sci-Fi Neon", 4, "neon", 1, "futuristic city at night", { premium: true }),
  m3(12, "Low Poly", 4, "low-poly", 2, "green hills at noon"),
  m3(13, "Pixel Art", 4, "pixel-art", 3, "ocean at sunset", { experimental: true }),
  m4(101, "M4 Photoreal", "photoreal", 1, "alpine lake at dawn"),
  m4(102, "M4 Painterly", "painterly", 2, "forest hills at sunset"),
  m4(103, "M4 Anime", "anime", 3, "city skyline at sunset"),
  m4(104, "M4 Sci-Fi Neon", "neon", 4, "neon city at night"),
];

/** Model 4 variants: ids are `style id * 10 + 1` (Standard) and `+ 2` (Enhanced). */
export function variantsOf(style: CatalogueStyle): { id: number; name: "Standard" | "Enhanced" }[] {
  return style.model === 4
    ? [
        { id: style.id * 10 + 1, name: "Standard" },
        { id: style.id * 10 + 2, name: "Enhanced" },
      ]
    : [];
}

export function findStyle(id: number): CatalogueStyle | undefined {
  return STYLES.find((s) => s.id === id);
}
