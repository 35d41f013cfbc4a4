// A line protocol over a Flat-Folder checkout, for bench/side_by_side_flatfolder.py.
//
// Usage: FLATFOLDER_DIR=/path/to/flat-folder node bench/flatfolder_driver.mjs
// Each line read is a JSON object {"path": "...", "limit": N or null, "import": optional boolean}; each line written
// is a JSON object with the states counted (as a string: Flat-Folder counts with BigInt), the variables, or the
// error, and the CPU and wall seconds spent reading the file and solving it (Flat-Folder's own batch pipeline,
// BATCH.process_file). With "import": true the file (.fold, .cp, .opx or .svg) is first read as Flat-Folder's
// interface reads it (IO.doc_type_side_2_V_VV_EV_EA_EF_FV_FE: edges sorted, faces oriented and found from the
// lines when absent, the outer face dropped), not handed to the batch pipeline as written. Node has no DOMParser,
// which Flat-Folder's .opx reader needs: an .opx file's lines are read here and handed over as the .cp text
// they make (type, then the two end points, as Flat-Folder's .cp reader expects). Flat-Folder's .opx reader gives
// ORIPA's auxiliary lines (type 0) an empty assignment, which it folds as it folds a flat line: they are written
// as flat lines.
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
const { IO } = await load("io.js");

const OPX_TYPES = ["", "F", "M", "V", "U"];  // ORIPA's line types as Flat-Folder's .opx reader maps them
const CP_TYPES = ["U", "B", "M", "V", "F"];   // the .cp codes Flat-Folder's .cp reader maps back

const opxAsCp = (text) => {
    const lines = [];
    for (const [, body] of text.matchAll(/<object class="oripa\.OriLineProxy">([\s\S]*?)<\/object>/g)) {
        const value = { type: 0, x0: 0, y0: 0, x1: 0, y1: 0 };
        for (const [, name, number] of body.matchAll(
            /<void property="(\w+)">\s*<(?:double|int)>([^<]*)<\/(?:double|int)>/g)) {
            value[name] = +number;
        }
        const type = OPX_TYPES[value.type] || "F";
        lines.push([Math.max(CP_TYPES.indexOf(type), 0), value.x0, value.y0, value.x1, value.y1].join(" "));
    }
    return lines.join("\n");
};

const write = (record) => process.stdout.write(JSON.stringify(record) + "\n");
console.log = () => {};  // Flat-Folder reports progress on the console; the protocol owns stdout
NOTE.show = false;
CON.build();
write({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const { path, limit, import: imported } = JSON.parse(line);
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    let outcome;
    try {
        const text = readFileSync(path, "utf8");
        let fold;
        if (imported) {
            const type = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
            const [V, , EV, EA, , FV] = type === "opx"
                ? IO.doc_type_side_2_V_VV_EV_EA_EF_FV_FE(opxAsCp(text), "cp", true)
                : IO.doc_type_side_2_V_VV_EV_EA_EF_FV_FE(text, type, true);
            if (V === undefined) throw new Error("Flat-Folder could not import the file");
            fold = { vertices_coords: V, edges_vertices: EV, edges_assignment: EA, faces_vertices: FV };
        } else {
            fold = JSON.parse(text);
        }
        fold.number = "0";
        const found = await BATCH.process_file(fold, limit ?? Infinity);
        outcome = { states: String(found.states), variables: found.variables, faces: found.faces };
    } catch (error) {
        outcome = { error: String((error && error.message) || error || "no answer") };
    }
    const cpu = process.cpuUsage(cpuStart);
    write({ ...outcome, cpu_s: (cpu.user + cpu.system) / 1e6, wall_s: (performance.now() - wallStart) / 1e3 });
}
