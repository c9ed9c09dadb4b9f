// The build id and version: set by scripts/compile.ts at compile time; from source, "dev" and
// package.json's version.
import packageJson from "../package.json" with { type: "json" };

declare const WS_BUILD_ID: string | undefined;
declare const WS_BUILD_VERSION: string | undefined;
export const BUILD: string = typeof WS_BUILD_ID === "string" ? WS_BUILD_ID : "dev";
export const WS_VERSION: string = typeof WS_BUILD_VERSION === "string" ? WS_BUILD_VERSION : packageJson.version;

declare const WS_RELEASED: boolean | undefined;
/** Built by `bun run release`; false for `bun run build` and from source (self-update wants --force). */
export const RELEASED: boolean = typeof WS_RELEASED === "boolean" ? WS_RELEASED : false;

declare const WS_RELEASE_BASE: string | undefined;
/** Where releases are published (`bun run release --base-url`): self-update's default; "" when unknown. */
export const RELEASE_BASE: string = typeof WS_RELEASE_BASE === "string" ? WS_RELEASE_BASE : "";
