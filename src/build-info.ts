// The build id: set by build.ts at compile time, "dev" when run from source.
declare const WS_BUILD_ID: string | undefined;
export const BUILD: string = typeof WS_BUILD_ID === "string" ? WS_BUILD_ID : "dev";
export const WS_VERSION = "0.1.0";
