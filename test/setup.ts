// Loaded before every test file (bunfig.toml): real daemons and shells on a loaded 2-core CI
// machine need more than bun's 5 s default per test.
import { setDefaultTimeout } from "bun:test";
setDefaultTimeout(30_000);
