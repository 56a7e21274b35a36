/**
 * The local service's heavy packages are optional peers of babylon-skybox: an app that only
 * uses the pane, applySkybox and the proxy with a real key never installs sharp (about 20 MB)
 * or the ffmpeg binary (about 66 MB). Whatever needs one checks here first, so a missing
 * package is a sentence naming the install command, never a module-resolution stack trace.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** What each optional package is for, as the start of the sentence a person reads. */
const PURPOSES = {
  sharp: "The local Skybox service needs sharp to encode its images",
  "@ffmpeg-installer/ffmpeg": "Video exports of the local Skybox service need ffmpeg",
} as const;

export type OptionalPackage = keyof typeof PURPOSES;

/** The sentence for a missing package, with the command that installs it. */
export function missingPackageMessage(name: OptionalPackage): string {
  return `${PURPOSES[name]}, and ${name} is not installed. Install it with: npm install --save-dev ${name}`;
}

/** Throws the sentence of `missingPackageMessage` unless `name` can be resolved. */
export function assertInstalled(name: OptionalPackage): void {
  try {
    require.resolve(name);
  } catch {
    throw new Error(missingPackageMessage(name));
  }
}

/** Loads a CommonJS optional package, or throws the sentence of `missingPackageMessage`. */
export function requireOptional<T>(name: OptionalPackage): T {
  assertInstalled(name);
  return require(name) as T;
}
