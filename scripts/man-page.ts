// ws.1 from the sources: the man page `ws help --man` prints, made by the same function from the
// same command table (src/cli/man-page.ts). `bun run build` writes dist/ws.1 beside dist/ws and
// ./install.sh installs it; the release installer asks the installed binary instead.
//   bun run scripts/man-page.ts [OUT]      (default dist/ws.1)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildCommandTable } from "../src/cli-table/table";
import { manPage } from "../src/cli/man-page";
import { WS_VERSION } from "../src/build-info";

export const MAN_PAGE = join(import.meta.dir, "..", "dist", "ws.1");

export function writeManPage(out = MAN_PAGE): void {
  writeFileSync(out, manPage(buildCommandTable(), WS_VERSION));
}

if (import.meta.main) writeManPage(process.argv[2]);
