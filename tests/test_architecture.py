"""The direction of imports (docs/architecture.md): layers only import downward, and no cycle.

The walk reads every ``import`` in the source, lazy ones inside functions included, so a
cycle that only bites at run time is caught as well. A package's ``__init__`` run by
importing one of its modules is not counted: the ``optimizer`` root is a face that imports
the solver, and every module below it would otherwise depend on it.

The command line reaches the optimizer through faces only: the root and each concern's
package, whose ``__all__`` says what it offers; a module below a face is the concern's own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: The one installed name: the layers are its subpackages (``fantasyland.evaluator`` is the
#: layer ``evaluator`` here), and its root is the users' face, which no layer imports.
PACKAGE = "fantasyland"

#: The layers, lowest first: a module may import its own concern and those below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("evaluator",),
    ("optimizer.opponents",),
    ("optimizer.solver",),
    ("optimizer.training", "optimizer.batch", "optimizer.ordinary"),  # side by side
    ("optimizer.play",),  # the game at the table: it uses the adviser and the grading of sets
    ("optimizer",),  # the root's face
    ("cli",),
    (PACKAGE,),  # the users' face
)

#: The faces the command line (the browser app too) imports the optimizer through: its root
#: and each of its concerns.
FACES = tuple(concern for concerns in LAYERS for concern in concerns
              if concern.partition(".")[0] == "optimizer")

#: Third-party packages that only some concerns may import.
ONLY_IN = {"typer": ("cli",), "rich": ("cli",), "click": ("cli",),
           "ortools": ("optimizer.solver",), "starlette": ("cli",), "uvicorn": ("cli",)}


def module_names(root: Path, tops: tuple[str, ...]) -> dict[str, Path]:
    """Every module of the packages ``tops`` below ``root``, by dotted name."""
    names = {}
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names



def in_layers(dotted: str) -> str:
    """A module's name as the layers know it: without the package's own prefix."""
    return dotted.removeprefix(PACKAGE + ".") if dotted.startswith(PACKAGE + ".") else dotted


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules ``name`` imports, anywhere in its source: known ones, and the top-level
    name of any other."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [in_layers(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if base == PACKAGE and not node.level:  # ``from fantasyland import cli``
                targets = [alias.name if alias.name in known else PACKAGE
                           for alias in node.names]
                found.update(targets)
                continue
            base = in_layers(base)
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from a import b`` imports the module ``a.b`` where there is one, else ``a``
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target not in known and "." in target:
                target = target.rpartition(".")[0]
            found.add(target)
    found.discard(name)
    return found


def layer_of(name: str) -> tuple[int, str] | None:
    """The layer and concern of a module: the longest concern that holds it."""
    best = None
    for level, concerns in enumerate(LAYERS):
        for concern in concerns:
            holds = name == concern or name.startswith(concern + ".")
            if holds and (best is None or len(concern) > len(best[1])):
                best = (level, concern)
    return best


def import_graph(root: Path) -> dict[str, set[str]]:
    names = module_names(root, ("evaluator", "optimizer", "cli"))
    return {name: imports_of(name, path, set(names)) for name, path in names.items()}


def wrong_way_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer, or of a side-by-side concern, or of the optimizer
    root from inside it, or of a third-party package outside the concerns allowed it."""
    wrong = []
    for name, targets in sorted(graph.items()):
        here = layer_of(name)
        for target in sorted(targets):
            there = layer_of(target) if target in graph else None
            if there is None:
                allowed = ONLY_IN.get(target.partition(".")[0])
                if allowed and here and not any(here[1] == a or here[1].startswith(a + ".")
                                                for a in allowed):
                    wrong.append(f"{name} imports {target} (only {', '.join(allowed)} may)")
                continue
            if here is None:
                continue
            if there[0] > here[0] or (there[0] == here[0] and there[1] != here[1]):
                wrong.append(f"{name} ({here[1]}) imports {target} ({there[1]})")
    return wrong


def face_bypasses(root: Path, listed: dict[str, set[str]]) -> list[str]:
    """Every import in ``cli`` of an optimizer module below a face, or of a name the face
    does not list (``listed``: each face's ``__all__``)."""
    found = []
    for name, path in module_names(root, ("cli",)).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                pairs = [(in_layers(alias.name), None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                pairs = [(in_layers(node.module or ""), alias.name) for alias in node.names]
            else:
                continue
            for module, imported in pairs:
                if module.partition(".")[0] != "optimizer":
                    continue
                if module not in listed:
                    found.append(f"{name} imports {module}, below its face")
                elif imported is not None and imported not in listed[module]:
                    found.append(f"{name} imports {imported} from {module}, whose face does "
                                 "not list it")
    return sorted(found)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected group of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node] & graph.keys()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# --- the project itself ------------------------------------------------------------------

def test_every_module_belongs_to_a_layer():
    assert [name for name in import_graph(REPO) if layer_of(name) is None] == []


def test_imports_flow_down_the_layers_only():
    assert wrong_way_imports(import_graph(REPO)) == []


def test_there_is_no_import_cycle():
    assert cycles(import_graph(REPO)) == []


def test_every_package_has_a_docstring_saying_what_it_owns():
    for name, path in module_names(REPO, ("evaluator", "optimizer", "cli")).items():
        if path.name == "__init__.py":
            assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), name


def test_the_root_keeps_its_face():
    from fantasyland.optimizer import Solution, solve, value_of_set

    assert callable(solve) and callable(value_of_set) and Solution.__name__ == "Solution"


def _faces() -> dict[str, object]:
    import importlib

    return {face: importlib.import_module(f"{PACKAGE}.{face}") for face in FACES}


def test_the_command_line_imports_the_optimizer_through_its_faces_only():
    listed = {face: set(module.__all__) for face, module in _faces().items()}
    assert face_bypasses(REPO, listed) == []


def test_every_name_a_face_lists_is_what_its_module_defines():
    """And no name is a module's below it: importing the module would set the package's
    attribute to the module, and ``from face import name`` would give the module."""
    import importlib

    for face, package in _faces().items():
        below = {info.stem for info in (REPO / face.replace(".", "/")).iterdir()}
        assert package.__all__ == sorted(set(package.__all__)), face
        for name in package.__all__:
            assert name not in below, f"{face}.{name} is also a module's name"
            value = getattr(package, name)
            if face != "optimizer":  # the root names the solver's own
                module, _, defined = package._FACE[name].partition(":")
                assert value is getattr(importlib.import_module(
                    f"{package.__name__}.{module}"), defined or name), f"{face}.{name}"


def test_every_import_of_the_project_goes_through_its_one_name():
    """``from evaluator.cards import ...`` worked from a checkout's root and nowhere else: the
    installed package has only ``fantasyland``."""
    bare = []
    for name, path in module_names(REPO, ("evaluator", "optimizer", "cli")).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom)
                       and not node.level else [])
            bare += [f"{name} imports {m}" for m in modules
                     if m.partition(".")[0] in ("evaluator", "optimizer", "cli")]
    assert bare == []


def test_the_face_names_only_what_its_modules_define():
    import importlib

    import fantasyland

    for name in fantasyland.__all__:
        module = importlib.import_module(f"fantasyland.{fantasyland._FACE[name]}")
        assert getattr(fantasyland, name) is getattr(module, name), name
    assert layer_of("fantasyland") == (len(LAYERS) - 1, PACKAGE)


# --- the checks catch what they are for --------------------------------------------------

def _tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


PLANTED = {
    "evaluator/__init__.py": '"""e"""\n',
    "evaluator/cards.py": "import numpy\n",
    "optimizer/__init__.py": '"""o"""\nfrom optimizer.solver.solve import solve\n',
    "optimizer/solver/__init__.py": '"""s"""\n',
    "optimizer/solver/solve.py": ("from evaluator.cards import x\n"
                                  "from optimizer.solver import model\n"),
    "optimizer/solver/model.py": "from ortools.sat.python import cp_model\n",
    "optimizer/opponents/__init__.py": '"""p"""\n',
    "optimizer/opponents/bot.py": "from . import pools\n",
    "optimizer/opponents/pools.py": "def f():\n    from optimizer.opponents.bot import g\n",
    "optimizer/training/__init__.py": '"""t"""\n',
    "optimizer/batch/__init__.py": '"""b"""\n',
    "cli/__init__.py": '"""c"""\n',
    "cli/solve.py": "import typer\nfrom optimizer import solve\n",
}


def test_a_clean_planted_tree_passes_every_check(tmp_path):
    graph = import_graph(_tree(tmp_path, {k: v for k, v in PLANTED.items()
                                          if k != "optimizer/opponents/pools.py"}))
    assert wrong_way_imports(graph) == [] and cycles(graph) == []


def test_a_planted_lazy_cycle_is_caught(tmp_path):
    graph = import_graph(_tree(tmp_path, PLANTED))  # bot -> pools (relative) -> bot (lazy)
    assert cycles(graph) == [["optimizer.opponents.bot", "optimizer.opponents.pools"]]


def test_a_planted_upward_import_is_caught(tmp_path):
    files = PLANTED | {"optimizer/opponents/pools.py": "from optimizer.solver.solve import solve\n"}
    graph = import_graph(_tree(tmp_path, files))
    assert wrong_way_imports(graph) == [
        "optimizer.opponents.pools (optimizer.opponents) imports optimizer.solver.solve "
        "(optimizer.solver)"]


@pytest.mark.parametrize("planted, expected", [
    ({"optimizer/training/grade.py": "from optimizer.batch import run\n",
      "optimizer/batch/run.py": ""},
     "optimizer.training.grade (optimizer.training) imports optimizer.batch.run "
     "(optimizer.batch)"),
    ({"optimizer/solver/face.py": "import optimizer\n"},
     "optimizer.solver.face (optimizer.solver) imports optimizer (optimizer)"),
    ({"evaluator/show.py": "import rich\n"},
     "evaluator.show imports rich (only cli may)"),
    ({"optimizer/opponents/cp.py": "from ortools.sat.python import cp_model\n"},
     "optimizer.opponents.cp imports ortools (only optimizer.solver may)"),
], ids=["side-by-side", "root-face", "rich-outside-cli", "ortools-outside-solver"])
def test_each_kind_of_wrong_way_import_is_caught(tmp_path, planted, expected):
    files = {k: v for k, v in PLANTED.items() if k != "optimizer/opponents/pools.py"}
    graph = import_graph(_tree(tmp_path, files | planted))
    assert wrong_way_imports(graph) == [expected]


@pytest.mark.parametrize("planted, expected", [
    ("from optimizer.solver.solve import solve\n",
     "cli.run imports optimizer.solver.solve, below its face"),
    ("import optimizer.solver.model\n", "cli.run imports optimizer.solver.model, below its face"),
    ("from optimizer.solver import model\n",
     "cli.run imports model from optimizer.solver, whose face does not list it"),
], ids=["module-below", "import-below", "name-not-listed"])
def test_an_import_that_bypasses_a_face_is_caught(tmp_path, planted, expected):
    listed = {"optimizer": {"solve"}, "optimizer.solver": {"Solution"}}
    root = _tree(tmp_path, PLANTED)
    assert face_bypasses(root, listed) == []  # cli/solve.py imports solve from the root
    _tree(root, {"cli/run.py": "from optimizer.solver import Solution\n" + planted})
    assert face_bypasses(root, listed) == [expected]
