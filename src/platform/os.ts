// Which operating system ws runs on: the one place outside the platform layer's own modules that
// code asks (the layer test holds process.platform to platform/), so what differs by system is
// found from here. No imports: a CLI call can ask without loading the platform layer.
export const hostOs: NodeJS.Platform = process.platform;

/** macOS's C library (libc and libproc both). */
export const LIBSYSTEM = "/usr/lib/libSystem.B.dylib";

/** glibc, the one place its file is named: on Linux (musl has none by this name, and every
 * caller then treats the calls as unavailable). */
export const GLIBC = hostOs === "linux" ? "libc.so.6" : undefined;

/** This system's C library: glibc on Linux, libSystem on macOS, none known elsewhere. */
export const C_LIBRARY = GLIBC ?? (hostOs === "darwin" ? LIBSYSTEM : undefined);
