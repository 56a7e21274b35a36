import { join } from "node:path";
import { STORED_FILES } from "../imagery/contract.ts";

/** Where a generation's files live on disk, below the data directory. */
export const generationDir = (dataDir: string, obfuscatedId: string) => join(dataDir, "generations", obfuscatedId);

/** Public URL of a file below the data directory (served by the service at /files/...). */
export const fileUrl = (baseUrl: string, relativePath: string) => `${baseUrl}/files/${relativePath.split("\\").join("/")}`;

export const generationFileUrl = (baseUrl: string, obfuscatedId: string, name: (typeof STORED_FILES)[keyof typeof STORED_FILES]) =>
  fileUrl(baseUrl, `generations/${obfuscatedId}/${name}`);
