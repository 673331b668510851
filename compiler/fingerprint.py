"""The engine fingerprint: a hash of every module compiled into a cached kernel.

Numba's cache checks only the file that defines a kernel, yet a kernel is compiled
together with the kernels it calls from other modules and with the constants it
reads from them (``L.HAND`` from simulate/layout.py, ``A.N_ACTIONS`` from
env/actions.py), which are frozen into the machine code. So the fingerprint
hashes the content of every module that holds ``cache=True`` kernels and of every
project module they import at module level, transitively: a change to any of them
changes ``unosim.ENGINE``, which names the cache folder (unosim/__init__.py) and is
the source stamp of the project's cache locator (compiler/locator.py).

No list is kept by hand: the modules are found by reading the package's source with
``ast``, as stumpy's ``cache.get_njit_funcs`` finds its compiled functions. A
module holds cached kernels if it decorates (or calls) ``njit``/``jit``/... with
``cache=True``, or a decorator of the project's that makes cached kernels: a name
bound to such a call (``_kernel = njit(cache=True)``), a function that calls one
(``kernel`` in simulate/jit.py), or either imported from another module.

Reading the whole package with ``ast`` takes about a second on a slow machine, and
this runs at every ``import unosim``: the result is kept in a small file per
installed copy under the user's cache folder (``engine-scan-*``). The quick check
stats the package's files (size and time stamp) and, when none changed, reads and
hashes only the modules of the fingerprint; otherwise the package is scanned again,
parsing only the files whose content it has not seen. Time stamps only decide
whether to look again: the fingerprint itself is a hash of content, the same for
every installation of the same sources.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # this module runs at every import of unosim: typing costs there
    from collections.abc import Callable
    from typing import Any

    #: the folder of a top-level subpackage (``"simulate"``) of the package, or None
    Locate = Callable[[str], Path | None]

#: the Numba decorators that take ``cache=``
JIT_NAMES = frozenset({"njit", "jit", "vectorize", "guvectorize", "cfunc", "generated_jit",
                       "stencil"})
#: bumped when what a summary or a stored scan records changes (older scan files are
#: ignored)
SCAN_VERSION = "2"
#: a scan is stored for the quick check only if no file changed in the last 2 s
RECENT_NS = 2_000_000_000


def _head(node: Any) -> list[str] | None:
    """The dotted name a call or decorator starts from (``njit``, ``J.kernel``)."""
    import ast

    if isinstance(node, ast.Call):
        node = node.func
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def _cache_flag(node: Any) -> bool:
    """Whether a call (or the call a call is made on) says ``cache=True``."""
    import ast

    while isinstance(node, ast.Call):
        for kw in node.keywords:
            if kw.arg == "cache" and not (isinstance(kw.value, ast.Constant)
                                          and not kw.value.value):
                return True  # cache=True, or a value we cannot read: assume it caches
        node = node.func
    return False


def summarise(source: bytes) -> dict[str, Any]:
    """What the fingerprint needs of one module's source: the names it binds by import
    (``bind``), its star imports, the project modules it imports at module level
    (``deps``), the calls and decorators that may make cached kernels (``uses``), the
    module-level names assigned from a call (``assign``) and the calls in each
    module-level function (``funcs``), each as [dotted head, cache flag]."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {"broken": True}
    bind: dict[str, list[Any]] = {}
    star: list[list[Any]] = []
    deps: list[list[Any]] = []
    uses: list[list[Any]] = []
    assign: dict[str, list[Any]] = {}
    funcs: dict[str, list[list[Any]]] = {}

    def use(node: Any, into: list[list[Any]]) -> None:
        head = _head(node)
        if head is not None:
            into.append([head, _cache_flag(node)])

    def imports(node: Any, top: bool) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    bind[a.asname] = ["import", 0, a.name, None]
                else:
                    root = a.name.split(".")[0]
                    bind.setdefault(root, ["import", 0, root, None])
                if top:
                    deps.append([0, a.name, None])
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            for a in node.names:
                if a.name == "*":
                    star.append([node.level, mod])
                else:
                    bind[a.asname or a.name] = ["from", node.level, mod, a.name]
                if top:
                    deps.append([node.level, mod, None if a.name == "*" else a.name])

    def visit(node: Any, top: bool, calls: list[list[Any]]) -> None:
        """Walk ``node``; ``top``: still at module level (not inside a function)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                imports(child, top)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for d in child.decorator_list:
                    use(d, uses)
                rest = [n for n in ast.iter_child_nodes(child) if n not in child.decorator_list]
                if isinstance(child, ast.ClassDef):
                    for n in rest:
                        visit_one(n, top, calls)
                else:
                    inner: list[list[Any]] = []
                    for n in rest:
                        visit_one(n, False, inner)
                    if top and node is tree:
                        funcs[child.name] = inner
                    calls.extend(inner)
                continue
            elif isinstance(child, ast.Lambda):
                visit(child, False, calls)
                continue
            elif isinstance(child, ast.Call):
                use(child, calls)
                if isinstance(child.func, ast.Call) or _cache_flag(child):
                    use(child, uses)  # njit(cache=True)(f), kernel(share=...)(f)
                elif top:
                    use(child, uses)  # f = kernel(g) at module level
            if (top and isinstance(child, ast.Assign | ast.AnnAssign)
                    and isinstance(child.value, ast.Call | ast.Name | ast.Attribute)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                head = _head(child.value)
                if head is not None:
                    for t in targets:
                        if isinstance(t, ast.Name):
                            assign[t.id] = [head, _cache_flag(child.value)]
            visit(child, top, calls)

    def visit_one(node: Any, top: bool, calls: list[list[Any]]) -> None:
        holder = ast.Module(body=[node], type_ignores=[])  # visit treats it as a child
        visit(holder, top, calls)

    visit(tree, True, [])
    return {"bind": bind, "star": star, "deps": deps, "uses": uses, "assign": assign,
            "funcs": funcs}


class _Package:
    """The package's modules (dotted name to file) and their summaries."""

    def __init__(self, top: str, files: dict[str, Path], summaries: dict[str, Any]) -> None:
        self.top = top
        self.files = files
        self.summaries = summaries  # module -> summary (parsed ones only)

    def absolute(self, module: str, level: int, name: str) -> str:
        """The absolute name of a (possibly relative) import in ``module``."""
        if not level:
            return name
        package = module if self.files[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(level - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{name}" if name else package

    def internal(self, name: str) -> bool:
        return name == self.top or name.startswith(self.top + ".")

    def deps(self, module: str) -> set[str]:
        """The project modules ``module`` imports at module level."""
        out = set()
        for level, mod, name in self.summaries[module].get("deps", []):
            base = self.absolute(module, level, mod)
            if not self.internal(base):
                continue
            if name is not None and f"{base}.{name}" in self.files:
                out.add(f"{base}.{name}")
            elif base in self.files:
                out.add(base)
        return out


def _resolver(pkg: _Package) -> tuple[Callable[[str, list[str]], Any],
                                      Callable[[str, str], Any]]:
    """Functions naming what a dotted name used in a module is: ("numba", name),
    ("def", module, name) for a name a project module defines, or None."""

    def numba_name(mod: str) -> bool:
        return mod == "numba" or mod.startswith("numba.")

    def attr(module: str, rest: list[str], seen: frozenset[Any]) -> Any:
        if numba_name(module):
            return ("numba", rest[-1]) if rest else None
        if not rest or module not in pkg.files:
            return None
        sub = f"{module}.{rest[0]}"
        if sub in pkg.files:
            return attr(sub, rest[1:], seen)
        return name_in(module, rest[0], seen) if len(rest) == 1 else None

    def name_in(module: str, name: str, seen: frozenset[Any]) -> Any:
        if (module, name) in seen:
            return None
        seen = seen | {(module, name)}
        s = pkg.summaries.get(module)
        if s is None or s.get("broken"):
            return ("def", module, name)
        if name in s["bind"]:
            return path_in(module, [name], seen)
        if name in s["assign"] or name in s["funcs"]:
            return ("def", module, name)
        for level, mod in s["star"]:
            base = pkg.absolute(module, level, mod)
            found = attr(base, [name], seen)
            if found is not None:
                return found
        return ("def", module, name)

    def path_in(module: str, path: list[str], seen: frozenset[Any] = frozenset()) -> Any:
        s = pkg.summaries.get(module)
        if s is None or s.get("broken"):
            return None
        root = path[0]
        b = s["bind"].get(root)
        if b is None:
            if root in s["assign"] or root in s["funcs"]:
                return ("def", module, root) if len(path) == 1 else None
            for level, mod in s["star"]:
                found = attr(pkg.absolute(module, level, mod), path, seen)
                if found is not None:
                    return found
            return None
        kind, level, mod, name = b
        base = pkg.absolute(module, level, mod)
        if kind == "import":
            return attr(base, path[1:], seen) if numba_name(base) or pkg.internal(base) else None
        if numba_name(base):
            return ("numba", path[-1] if len(path) > 1 else name)
        if not pkg.internal(base):
            return None
        if f"{base}.{name}" in pkg.files:
            return attr(f"{base}.{name}", path[1:], seen)
        if len(path) == 1:
            return name_in(base, name, seen)
        return None

    return path_in, name_in


def _analyse(pkg: _Package) -> tuple[set[tuple[str, str]], dict[str, set[str]], set[str]]:
    """The project's cached-kernel decorators, the names that bind one in each module
    that binds one (defines or imports it) and the modules that hold cached kernels,
    from the parsed modules."""
    path_in, name_in = _resolver(pkg)
    factories: set[tuple[str, str]] = set()
    memo: dict[tuple[str, ...], Any] = {}

    def cached(module: str, head: list[str], flag: bool) -> bool:
        key = (module, *head)
        if key not in memo:
            memo[key] = path_in(module, head)
        what = memo[key]
        if what is None:
            return False
        if what[0] == "numba":
            return what[1] in JIT_NAMES and flag
        return (what[1], what[2]) in factories

    changed = True
    while changed:
        changed = False
        for module, s in pkg.summaries.items():
            if s.get("broken"):
                continue
            for name, (head, flag) in s["assign"].items():
                if (module, name) not in factories and cached(module, head, flag):
                    factories.add((module, name))
                    changed = True
            for name, calls in s["funcs"].items():
                if (module, name) not in factories and any(cached(module, h, f)
                                                           for h, f in calls):
                    factories.add((module, name))
                    changed = True
    binders: dict[str, set[str]] = {}
    kernels: set[str] = set()
    for module, s in pkg.summaries.items():
        if s.get("broken"):
            kernels.add(module)  # cannot be read: counted in, to be safe
            continue
        for name in s["bind"]:
            what = name_in(module, name, frozenset())
            if what is not None and (what[1] in JIT_NAMES if what[0] == "numba"
                                     else (what[1], what[2]) in factories):
                binders.setdefault(module, set()).add(name)
        for m, name in factories:
            if m == module:
                binders.setdefault(module, set()).add(name)
        if any(cached(module, h, f) for h, f in s["uses"]):
            kernels.add(module)
    return factories, binders, kernels


def _walk(folder: Path, package: str, out: dict[str, Path]) -> None:
    """The modules of a regular package folder, by dotted name."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        if e.name.endswith(".py") and e.is_file():
            stem = e.name[:-3]
            out[package if stem == "__init__" else f"{package}.{stem}"] = Path(e.path)
        elif (e.is_dir() and e.name.isidentifier()
              and os.path.isfile(os.path.join(e.path, "__init__.py"))):
            _walk(Path(e.path), f"{package}.{e.name}", out)


#: how a module names a subpackage: ``unosim.simulate``, ``from unosim import simulate``
_MENTION = rb"%s\.([A-Za-z_]\w*)"
_FROM = rb"\bfrom\s+%s\s+import\s+\(?([\w\s,]+)"


def _modules(root: Path, top: str, locate: Locate,
             texts: dict[str, bytes]) -> tuple[dict[str, Path], dict[str, Path]]:
    """Every module of the package (``root`` is its folder) and the folders walked:
    the subpackages under ``root`` and those elsewhere (an editable install maps
    them to the checkout's folders), found as the package's sources name them."""
    folders = {top: root}
    files: dict[str, Path] = {}
    _walk(root, top, files)
    import re

    mention = re.compile(_MENTION % re.escape(top).encode())
    from_top = re.compile(_FROM % re.escape(top).encode())
    asked: set[str] = set()
    todo = list(files)
    while todo:
        module = todo.pop()
        if module not in texts:
            texts[module] = files[module].read_bytes()
        text = texts[module]
        names = set(mention.findall(text))
        for group in from_top.findall(text) if b"from " + top.encode() in text else ():
            names.update(n.split()[0] for n in group.split(b",") if n.split())
        for m in names:
            name = m.decode()
            sub = f"{top}.{name}"
            if sub in files or name in asked:
                continue
            asked.add(name)
            folder = locate(name)
            if folder is None or not (folder / "__init__.py").is_file():
                continue
            folders[sub] = folder
            found: dict[str, Path] = {}
            _walk(folder, sub, found)
            files.update(found)
            todo.extend(found)
    return files, folders


def scan(root: Path, top: str = "unosim", locate: Locate | None = None,
         summaries: dict[str, Any] | None = None) -> dict[str, Any]:
    """Read the package at ``root`` (named ``top``): its folders, the modules that
    hold cached kernels (``kernels``), the modules of the fingerprint (``closure``:
    those and every project module they import, transitively), each module's
    content hash and the summaries by content hash (``summaries``, which a later
    scan reuses)."""
    locate = locate or (lambda name: None)
    texts: dict[str, bytes] = {}
    files, folders = _modules(root, top, locate, texts)
    digests = {m: hashlib.sha1(t).hexdigest() for m, t in texts.items()}
    known = dict(summaries or {})
    parsed: dict[str, Any] = {}

    def parse(module: str) -> None:
        if module not in parsed:
            d = digests[module]
            if d not in known:
                known[d] = summarise(texts[module])
            parsed[module] = known[d]

    pkg = _Package(top, files, parsed)
    # a module can make cached kernels only through numba or through a project module
    # that binds a cached-kernel decorator, whose name (and one of the names it binds
    # the decorator to, or a star) its import then spells: parse the modules that
    # name either, as long as new such modules turn up
    words: set[tuple[bytes, frozenset[bytes]]] = {(b"numba", frozenset([b""]))}
    seen: dict[tuple[str, bytes], bool] = {}

    def says(module: str, word: bytes) -> bool:
        if (module, word) not in seen:
            seen[module, word] = word in texts[module]
        return seen[module, word]

    while True:
        for module in texts:
            if module not in parsed and any(
                    says(module, w) and any(says(module, n) for n in names)
                    for w, names in words):
                parse(module)
        _, binders, kernels = _analyse(pkg)
        more = {(b.rpartition(".")[2].encode(),
                 frozenset({n.encode() for n in names} | {b"import *"}))
                for b, names in binders.items()} - words
        if not more:
            break
        words |= more
    closure: set[str] = set()
    todo = sorted(kernels)
    while todo:
        module = todo.pop()
        if module in closure:
            continue
        closure.add(module)
        parse(module)
        if not parsed[module].get("broken"):
            todo.extend(pkg.deps(module) - closure)
        if not todo:  # the closure's modules are parsed now: any kernels among them?
            _, _, kernels = _analyse(pkg)
            todo = sorted(kernels - closure)
    used = {digests[m] for m in parsed}
    return {"folders": folders, "files": files, "kernels": kernels, "closure": closure,
            "digests": digests, "summaries": {d: known[d] for d in used}}


def digest(closure: dict[str, bytes]) -> str:
    """The fingerprint of the modules' contents (by dotted name, so the same sources
    give the same fingerprint wherever they are installed)."""
    h = hashlib.sha1(b"unosim-engine\0")
    for module in sorted(closure):
        h.update(module.encode() + b"\0")
        h.update(hashlib.sha1(closure[module]).digest())
    return h.hexdigest()[:12]


def fingerprint_of(root: Path, top: str = "unosim", locate: Locate | None = None) -> str:
    """The fingerprint of the package at ``root``, scanned afresh (no stored scan)."""
    found = scan(root, top, locate)
    return digest({m: found["files"][m].read_bytes() for m in found["closure"]})


def _stamp(folders: list[str]) -> tuple[str, int]:
    """The size and time stamp of every module file under ``folders`` (paths as
    strings: this runs at every import and Path objects cost more than the stats):
    when it is unchanged, so is the package's last scan; and the latest time stamp."""
    seen: list[tuple[str, int, int]] = []
    todo = list(folders)
    while todo:
        folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            if e.name.endswith(".py"):
                st = e.stat()
                seen.append((e.path, st.st_size, st.st_mtime_ns))
            elif e.name != "__pycache__" and e.is_dir():
                todo.append(e.path)
    seen.sort()
    return hashlib.sha1(repr(seen).encode()).hexdigest(), max((t for *_, t in seen), default=0)


def _store(root: Path, base: Path) -> Path:
    """The stored scan of the installed copy at ``root`` (one file per copy)."""
    key = hashlib.sha1(str(root).encode()).hexdigest()[:12]
    return base / f"engine-scan-{key}"


def _located(names: list[str], folders: list[str], top: str, locate: Locate | None) -> bool:
    """Whether each subpackage of a stored scan is still found where it was: the same
    ``unosim/`` folder can be paired with another checkout's subpackages (a second
    editable install, a PYTHONPATH), whose files the stamp of the stored folders
    would never see."""
    for name, folder in zip(names, folders, strict=True):
        if name != top:
            place = locate(name.rpartition(".")[2]) if locate else None
            if place is None or str(place) != folder:
                return False
    return True


def fingerprint(root: Path, top: str = "unosim", locate: Locate | None = None,
                store: Path | None = None) -> str:
    """The fingerprint of the package at ``root``, using the scan stored in the folder
    ``store`` when no file of the package changed since (and storing a new one
    otherwise; a folder that cannot be written only makes the next call slower)."""
    if store is None:
        return fingerprint_of(root, top, locate)
    manifest = _store(root, store)
    try:
        lines = manifest.with_suffix(".txt").read_text().splitlines()
        folders = lines[3].split("\t")
        if (lines[0] == SCAN_VERSION and lines[1] == str(root)
                and _located(lines[4].split("\t"), folders, top, locate)):
            if _stamp(folders)[0] == lines[2]:
                closure = {}
                for line in lines[5:]:
                    module, _, path = line.partition("\t")
                    with open(path, "rb") as f:
                        closure[module] = f.read()
                return digest(closure)
    except (OSError, IndexError, ValueError):
        pass
    import json

    summaries: dict[str, Any] = {}
    try:
        stored = json.loads(manifest.with_suffix(".json").read_text())
        if stored.get("version") == SCAN_VERSION:
            summaries = stored["summaries"]
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    import time

    now = time.time_ns()
    found = scan(root, top, locate, summaries)
    folders = [str(f) for f in found["folders"].values()]
    stamp, latest = _stamp(folders)
    closure = {m: found["files"][m].read_bytes() for m in found["closure"]}
    # the stat check is trusted only for files written well before they were read: a
    # file rewritten at the same size within one tick of the file system's clock
    # would keep its time stamp (git calls such an index "racily clean")
    trusted = latest < now - RECENT_NS and all(
        hashlib.sha1(t).hexdigest() == found["digests"][m] for m, t in closure.items())
    lines = [SCAN_VERSION, str(root), stamp, "\t".join(folders), "\t".join(found["folders"])]
    lines += [f"{m}\t{found['files'][m]}" for m in sorted(found["closure"])]
    try:
        store.mkdir(parents=True, exist_ok=True)
        out = [(".json", json.dumps({"version": SCAN_VERSION, "summaries": found["summaries"]}))]
        if trusted:
            out.append((".txt", "\n".join(lines) + "\n"))
        else:
            manifest.with_suffix(".txt").unlink(missing_ok=True)  # scan again next time
        for suffix, text in out:
            tmp = manifest.with_suffix(f"{suffix}.{os.getpid()}.tmp")
            tmp.write_text(text)
            os.replace(tmp, manifest.with_suffix(suffix))
    except OSError:
        pass
    return digest(closure)
