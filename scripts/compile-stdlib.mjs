// Compiles the Pyodide runtime's standard library to bytecode, once, at setup
// (scripts/fetch-pyodide runs it with Node):
//
//   node scripts/compile-stdlib.mjs PYODIDE_FOLDER [BASRA_PACKAGE]
//
// Pyodide's python_stdlib.zip holds sources: every start of the engine in a page
// compiled each module it imported (about 200) before running it, most of a first
// start's seconds. This runs the very runtime of PYODIDE_FOLDER under Node (so the
// bytecode is exactly that Python's), imports the offline engine (basra.offline, from
// BASRA_PACKAGE, the package's folder) to learn which modules of the standard library a
// start imports, and writes PYODIDE_FOLDER/python_stdlib.pyc.zip: the same tree with
// each of those modules as `x.pyc` instead of `x.py` (unchecked-hash bytecode: zipimport
// loads it without a source to compare with) and every other file as it is (a module
// imported later, say by a bot, still loads from its source), entries in a fixed order
// and dated 2020-01-01, so the same inputs always give the same bytes. Without
// BASRA_PACKAGE every module is compiled (a bigger zip). The page loads it instead of
// the sources when the server has it (basra.server.features.offline_files).

import { writeFileSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const COMPILED = "python_stdlib.pyc.zip";

const COMPILE = `
import importlib.util, io, marshal, sys, zipfile

def compile_zip(path, wanted):
    source = zipfile.ZipFile(path)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in sorted(source.infolist(), key=lambda i: i.filename):
            data = source.read(info.filename)
            name = info.filename
            if name.endswith(".py") and (wanted is None or name in wanted):
                code = compile(data, name, "exec", dont_inherit=True)
                # PEP 552: flags 1 = hash-based, not checked against a source.
                data = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8) + marshal.dumps(code)
                name += "c"
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = info.external_attr
            target.writestr(entry, data)
    return out.getvalue()

major, minor = sys.version_info[:2]
stdlib = f"/lib/python{major}{minor}.zip"
wanted = None
if engine:
    sys.dont_write_bytecode = True  # nothing written into the package's folder
    sys.path.insert(0, "/basra-src")
    import basra.offline  # noqa: F401  (what a start imports)
    prefix = stdlib + "/"
    wanted = {m.__file__[len(prefix):] for m in list(sys.modules.values())
              if (getattr(m, "__file__", None) or "").startswith(prefix)}
compiled = compile_zip(stdlib, wanted)
`;

async function main(folder, engine) {
  const root = resolve(folder);
  const { loadPyodide } = await import(pathToFileURL(join(root, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: root + "/", stdout: () => {} });
  if (engine) {
    pyodide.FS.mkdirTree("/basra-src/basra");
    pyodide.mountNodeFS("/basra-src/basra", resolve(engine));
  }
  pyodide.globals.set("engine", Boolean(engine));
  pyodide.runPython(COMPILE);
  const bytes = pyodide.globals.get("compiled").toJs();
  const target = join(root, COMPILED);
  writeFileSync(target + ".part", bytes);
  renameSync(target + ".part", target);
  console.log(`compile-stdlib: ${COMPILED} (${bytes.length} bytes) in ${root}`);
}

if (process.argv.length < 3 || process.argv.length > 4) {
  console.error("usage: node scripts/compile-stdlib.mjs PYODIDE_FOLDER [BASRA_PACKAGE]");
  process.exit(2);
}
main(process.argv[2], process.argv[3]).catch((error) => {
  console.error(`compile-stdlib: ${error?.message || error}`);
  process.exit(1);
});
