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
//
// With BASRA_PACKAGE it also writes PYODIDE_FOLDER/basra_bytecode.zip: the engine's own
// modules compiled by that Python, each named by the sha256 of its source
// (`<sha256>.pyc`), and `cache_tag` (that Python's, "cpython-314"). The server puts a
// module's bytecode beside it in the core's zip only where its source is that very
// source (basra.server.features.offline_files.CoreSources), so a deploy that changed a
// module sends that module as a source alone, compiled in the page as before.

import { writeFileSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const COMPILED = "python_stdlib.pyc.zip";
export const CORE_BYTECODE = "basra_bytecode.zip";

const COMPILE = `
import hashlib, importlib.util, io, marshal, sys, zipfile

def pyc(source, name):
    code = compile(source, name, "exec", dont_inherit=True)
    # PEP 552: flags 1 = hash-based, not checked against a source.
    return importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + importlib.util.source_hash(source) + marshal.dumps(code)

def entry(name):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info

def compile_zip(path, wanted):
    source = zipfile.ZipFile(path)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in sorted(source.infolist(), key=lambda i: i.filename):
            data = source.read(info.filename)
            name = info.filename
            if name.endswith(".py") and (wanted is None or name in wanted):
                data = pyc(data, name)
                name += "c"
            kept = entry(name)
            kept.external_attr = info.external_attr
            target.writestr(kept, data)
    return out.getvalue()

def compile_engine(folder):
    """The engine's modules a start imports, by the sha256 of their sources."""
    out = io.BytesIO()
    done = set()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        target.writestr(entry("cache_tag"), sys.implementation.cache_tag)
        files = sorted(m.__file__ for m in list(sys.modules.values())
                       if (getattr(m, "__file__", None) or "").startswith(folder))
        for path in files:
            source = open(path, "rb").read()
            digest = hashlib.sha256(source).hexdigest()
            if digest not in done:
                done.add(digest)
                target.writestr(entry(digest + ".pyc"), pyc(source, path))
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
engine_bytecode = compile_engine("/basra-src/basra/") if engine else None
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
  const write = (name, bytes) => {
    const target = join(root, name);
    writeFileSync(target + ".part", bytes);
    renameSync(target + ".part", target);
    console.log(`compile-stdlib: ${name} (${bytes.length} bytes) in ${root}`);
  };
  write(COMPILED, pyodide.globals.get("compiled").toJs());
  if (engine) write(CORE_BYTECODE, pyodide.globals.get("engine_bytecode").toJs());
}

if (process.argv.length < 3 || process.argv.length > 4) {
  console.error("usage: node scripts/compile-stdlib.mjs PYODIDE_FOLDER [BASRA_PACKAGE]");
  process.exit(2);
}
main(process.argv[2], process.argv[3]).catch((error) => {
  console.error(`compile-stdlib: ${error?.message || error}`);
  process.exit(1);
});
