// A line protocol over a Flat-Folder checkout, for bench/side_by_side_flatfolder.py.
//
// Usage: FLATFOLDER_DIR=/path/to/flat-folder node bench/flatfolder_driver.mjs
// Each line read is a JSON object {"path": "...", "limit": N or null}; each line written is a JSON object with the
// states counted (as a string: Flat-Folder counts with BigInt), the variables, or the error, and the CPU and wall
// seconds spent reading the file and solving it (Flat-Folder's own batch pipeline, BATCH.process_file).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const root = process.env.FLATFOLDER_DIR;
if (!root) {
    process.stderr.write("FLATFOLDER_DIR is not set\n");
    process.exit(2);
}
const load = (file) => import(pathToFileURL(join(root, "src", file)).href);
const { BATCH } = await load("batch.js");
const { CON } = await load("constraints.js");
const { NOTE } = await load("note.js");

const write = (record) => process.stdout.write(JSON.stringify(record) + "\n");
console.log = () => {};  // Flat-Folder reports progress on the console; the protocol owns stdout
NOTE.show = false;
CON.build();
write({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const { path, limit } = JSON.parse(line);
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    let outcome;
    try {
        const fold = JSON.parse(readFileSync(path, "utf8"));
        fold.number = "0";
        const found = await BATCH.process_file(fold, limit ?? Infinity);
        outcome = { states: String(found.states), variables: found.variables, faces: found.faces };
    } catch (error) {
        outcome = { error: String((error && error.message) || error || "no answer") };
    }
    const cpu = process.cpuUsage(cpuStart);
    write({ ...outcome, cpu_s: (cpu.user + cpu.system) / 1e6, wall_s: (performance.now() - wallStart) / 1e3 });
}
