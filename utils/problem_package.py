"""Read a Kattis problem package from disk (`main.py --problem-dir DIR`): a contest problem, stdin to stdout.

The layout ICPC contests publish: problem.yaml (name, `validation`, `validator_flags`, `limits`), the statement in
problem_statement/problem.en.tex (or problem.tex), the samples in data/sample/*.in with their *.ans, the judge's
tests in data/secret (any depth). The statement becomes Markdown a model and a person read (statement_text),
the samples appended as "Sample Input k" / "Sample Output k" sections, which core/contest_samples.py reads back.

Refused, each with one line (InputError, exit 2): a folder that is not a package, no statement, no sample, a
sample without its answer, a package whose answers are judged by its own validator (validation: custom) or that
talks with the judge (interactive): codeloop compares printed tokens only.

Run alone:  python -m utils.problem_package DIR
"""
import configparser
import os
import re
import sys
from dataclasses import dataclass

import yaml

from utils.text_files import InputError, read_text_file
from utils.yaml_answer import load_yaml

STATEMENT_CHARS = 50_000
SAMPLE_CHARS = 1_000_000
HIDDEN_CHARS = 64_000_000


@dataclass(frozen=True)
class PackageTest:
    name: str
    input_text: str
    answer_text: str


@dataclass(frozen=True)
class Package:
    name: str
    folder: str
    statement: str            # Markdown: the title, the statement, its samples
    samples: tuple            # PackageTest from data/sample
    hidden: tuple             # PackageTest from data/secret (empty when read with hidden=False)
    missing: int              # secret inputs without a readable answer (a public snapshot lacks its largest files)
    time_limit: float | None  # seconds, where the package states it
    float_tolerance: float | None
    case_sensitive: bool = False
    space_change_sensitive: bool = False


def read_package(path, hidden=True):
    """The Package in folder `path`; `hidden=False` leaves the secret tests unread (the flow never sees them)."""
    folder = os.path.abspath(os.fspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"--problem-dir {path}: no such folder")
    config = _problem_yaml(folder)
    validation = str(config.get("validation") or "default").split("#")[0].strip()
    if "interactive" in validation:
        raise InputError(f"{folder}: an interactive problem (validation: {validation}) talks with its judge; codeloop "
                         "runs programs on fixed inputs only")
    if validation != "default":
        raise InputError(f"{folder} is judged by its own output validator (validation: {validation}); codeloop compares "
                         "printed tokens, so it takes packages with the default validation only")
    flags = _flags(config.get("validator_flags"))
    tex = _statement_file(folder)
    name = config.get("name")
    if isinstance(name, dict):  # newer packages name it per language: {en: Klompendans}
        name = name.get("en") or next(iter(name.values()), None)
    title = str(name or _problem_name(tex) or os.path.basename(folder)).strip()
    samples = _tests(os.path.join(folder, "data", "sample"), SAMPLE_CHARS, strict=True)[0]
    if not samples:
        raise InputError(f"{folder}: no samples (data/sample/*.in with their .ans): the samples are its trusted tests")
    secret, missing = _tests(os.path.join(folder, "data", "secret"), HIDDEN_CHARS) if hidden else ((), 0)
    statement = f"# {title}\n\n{statement_text(tex)}\n\n" + samples_section(samples)
    return Package(title, folder, statement, samples, secret, missing, _time_limit(folder, config), flags["tolerance"],
                   flags["case_sensitive"], flags["space_change_sensitive"])


def _problem_yaml(folder):
    path = os.path.join(folder, "problem.yaml")
    if not os.path.exists(path):
        raise InputError(f"{folder} is not a Kattis problem package: it has no problem.yaml")
    try:
        config = load_yaml(read_text_file(path, f"{path}", 100_000)) or {}  # the one YAML parser: YAML 1.2's rules
    except yaml.YAMLError as exc:
        raise InputError(f"{path} does not parse as YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(config, dict):
        raise InputError(f"{path} must be a mapping (name: ..., validation: ...)")
    return config


def _flags(written):
    words = str(written or "").split("#")[0].split()
    values = {word: float(words[k + 1]) for k, word in enumerate(words[:-1])
              if word.startswith("float_") and re.fullmatch(r"[0-9.eE+-]+", words[k + 1])}
    tolerance = values.get("float_tolerance") or min(
        [v for k, v in values.items() if k in ("float_absolute_tolerance", "float_relative_tolerance")], default=None)
    return {"tolerance": tolerance, "case_sensitive": "case_sensitive" in words,
            "space_change_sensitive": "space_change_sensitive" in words}


def _statement_file(folder):
    where = os.path.join(folder, "problem_statement")
    names = sorted(name for name in os.listdir(where) if re.fullmatch(r"problem(\.\w+)?\.tex", name)) \
        if os.path.isdir(where) else []
    chosen = next((name for name in ("problem.en.tex", "problem.tex") if name in names), names[0] if len(names) == 1 else None)
    if chosen is None:
        raise InputError(f"{folder}: no statement (problem_statement/problem.en.tex)")
    return read_text_file(os.path.join(where, chosen), f"the statement {os.path.join(where, chosen)}", STATEMENT_CHARS)


def _problem_name(tex):
    found = re.search(r"\\problemname\{([^}]*)\}", tex)
    return found and found.group(1)


def _time_limit(folder, config):
    limits = config.get("limits") if isinstance(config.get("limits"), dict) else {}
    if isinstance(limits.get("time_limit"), (int, float)):
        return float(limits["time_limit"])
    for name in (".timelimit", "domjudge-problem.ini"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            text = open(path, encoding="utf-8", errors="replace").read()
            if name == "domjudge-problem.ini":
                parser = configparser.ConfigParser()
                parser.read_string("[problem]\n" + text)
                text = parser["problem"].get("timelimit", "")
            try:
                return float(text.strip().strip("'\""))
            except ValueError:
                continue
    return None


def _tests(where, cap, strict=False):
    """(PackageTests of the .in/.ans pairs under `where`, naturally sorted; inputs without an answer). `strict`:
    an input without its answer is refused (a sample), else counted."""
    pairs, missing = [], 0
    for root, subfolders, files in os.walk(where):
        subfolders.sort()
        for name in files:
            if not name.endswith(".in"):
                continue
            stem = os.path.join(root, name[:-3])
            answer = stem + ".ans"
            if not os.path.exists(answer) or os.path.getsize(stem + ".in") > cap or os.path.getsize(answer) > cap:
                if strict:
                    raise InputError(f"the sample {stem}.in has no answer file {os.path.basename(answer)}"
                                     if not os.path.exists(answer) else f"the sample {stem}.in is larger than {cap:,} bytes")
                missing += 1
                continue
            label = os.path.relpath(stem, where).replace(os.sep, "/")
            pairs.append(PackageTest(label, read_text_file(stem + ".in", f"{stem}.in", cap),
                                     read_text_file(answer, answer, cap)))
    pairs.sort(key=lambda test: [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", test.name)])
    return tuple(pairs), missing


def samples_section(samples):
    """The samples as Markdown sections core/contest_samples.py reads: fenced, numbered from 1."""
    parts = []
    for k, test in enumerate(samples, 1):
        for what, text in (("Input", test.input_text), ("Output", test.answer_text)):
            fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
            parts.append(f"## Sample {what} {k}\n\n{fence}\n{text.rstrip(chr(10))}\n{fence}\n")
    return "\n".join(parts)


# --- LaTeX to text: what a person pastes from a Kattis page, close enough for a model and a reader
DROPPED = {"label", "vspace", "hspace", "illustration", "includegraphics", "noindent", "centering", "medskip",
           "smallskip", "bigskip", "newline", "clearpage", "newpage", "problemname", "caption", "sloppy", "par"}
SYMBOLS = {"le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "ne": "!=", "neq": "!=", "cdot": "*", "times": "x",
           "ldots": "...", "dots": "...", "cdots": "...", "lfloor": "floor(", "rfloor": ")", "lceil": "ceil(",
           "rceil": ")", "{": "{", "}": "}", "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "\\": "\n", "infty": "inf",
           "pm": "+-", "in": "in", "to": "->", "rightarrow": "->", "leftarrow": "<-", "mid": "|", "bmod": "mod",
           "mod": "mod", "log": "log", "min": "min", "max": "max", "sum": "sum", "prod": "prod", "sqrt": "sqrt",
           "ell": "l", "alpha": "alpha", "beta": "beta", "gamma": "gamma", "delta": "delta", "pi": "pi",
           "lvert": "|", "rvert": "|", "vert": "|", "quad": " ", "qquad": " ", ",": " ", ";": " ", " ": " ",
           "neg": "not", "land": "and", "lor": "or", "oplus": "xor", "approx": "~", "sim": "~", "prime": "'",
           "ss": "ß", "o": "o"}
FORMATS = {"texttt": "`{}`", "emph": "{}", "textit": "{}", "textbf": "{}", "textsc": "{}", "mathrm": "{}",
           "text": "{}", "mbox": "{}", "mathit": "{}", "mathbf": "{}", "mathcal": "{}", "operatorname": "{}",
           "section": "\n## {}\n", "section*": "\n## {}\n", "subsection": "\n### {}\n", "subsection*": "\n### {}\n",
           "footnote": " ({})", "url": "{}", "textrm": "{}", "underline": "{}", "ensuremath": "{}", "frac": "({})/",
           "texorpdfstring": "{}", "hat": "{}", "bar": "{}", "overline": "{}", "lstinline": "`{}`"}


def statement_text(tex):
    """A Kattis statement's LaTeX as plain Markdown: sections as headings, lists as items, math as text."""
    tex = re.sub(r"(?<!\\)%[^\n]*", "", tex)  # comments (a \% stays)
    tex = _expand_macros(tex)
    tex = re.sub(r"\\begin\{(Input|Output)\}", lambda m: f"\n## {m.group(1)}\n", tex)  # NWERC's sections
    tex = re.sub(r"\\end\{(Input|Output)\}", "\n", tex)
    tex = re.sub(r"\\begin\{(verbatim|lstlisting)\}(.*?)\\end\{\1\}", lambda m: f"\n```\n{m.group(2).strip()}\n```\n",
                 tex, flags=re.DOTALL)
    tex = re.sub(r"\\begin\{(figure|wrapfigure|center)\*?\}(?:\[[^\]]*\])?", "", tex)
    tex = re.sub(r"\\end\{(figure|wrapfigure|center)\*?\}", "", tex)
    tex = re.sub(r"\\begin\{(itemize|enumerate|description)\}|\\end\{(itemize|enumerate|description)\}", "\n", tex)
    tex = re.sub(r"\\item(?:\[([^\]]*)\])?\s*", lambda m: f"\n- {m.group(1) + ': ' if m.group(1) else ''}", tex)
    tex = re.sub(r"\\begin\{tabular\}\{[^}]*\}|\\end\{tabular\}|\\hline", "\n", tex)
    tex = re.sub(r"\\(?:begin|end)\{[a-z*]+\}(?:\{[^}]*\})?", "\n", tex)
    tex = re.sub(r"(?<!\\)&", " | ", tex)
    text = _commands(tex)
    text = re.sub(r"\$\$?", "", text)
    text = re.sub(r"\^\{([^{}]*)\}", lambda m: "^" + (m.group(1) if re.fullmatch(r"-?[\w.]+", m.group(1)) else f"({m.group(1)})"),
                  text)
    text = re.sub(r"_\{([^{}]*)\}", lambda m: "_" + (m.group(1) if re.fullmatch(r"[\w.]+", m.group(1)) else f"({m.group(1)})"),
                  text)
    text = text.replace("{", "").replace("}", "").replace("~", " ")
    text = re.sub(r"[ \t]+\n", "\n", re.sub(r"[ \t]{2,}", " ", text))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _expand_macros(tex):
    """A statement's own constants (\\newcommand{\\maxn}{500}, \\def\\maxn{500}) written where they are used."""
    macros = {}
    defined = re.compile(r"\\(?:re)?newcommand\*?\{?\\([A-Za-z]+)\}?(?=\s*\{)|\\def\\([A-Za-z]+)(?=\s*\{)")
    for found in list(defined.finditer(tex))[::-1]:  # from the end, so earlier offsets stay right
        name = found.group(1) or found.group(2)
        value, end = _argument(tex, found.end())
        macros[name] = value
        tex = tex[:found.start()] + tex[end:]
    for name in sorted(macros, key=len, reverse=True):
        tex = re.sub(r"\\" + name + r"(?![A-Za-z])\s?", lambda _, value=macros[name]: value, tex)
    return tex


def _commands(tex):
    """Every backslash command replaced: symbols by their text, formats by their braced argument, the rest dropped
    with their name (their braced text kept). Braces are matched, so nested arguments stay whole."""
    out, k = [], 0
    while k < len(tex):
        if tex[k] != "\\":
            out.append(tex[k])
            k += 1
            continue
        named = re.match(r"\\([A-Za-z]+\*?|[\s\S]?)", tex[k:])
        name, k = named.group(1), k + named.end()
        if name in SYMBOLS:
            out.append(SYMBOLS[name] if not name.isalpha() else f" {SYMBOLS[name]} ".replace("  ", " "))
            continue
        if name == "href":  # \href{url}{text}: the text
            _, k = _argument(tex, k)
            text, k = _argument(tex, k)
            out.append(_commands(text))
            continue
        if name in DROPPED:
            count = {"illustration": 3, "includegraphics": 1, "label": 1, "vspace": 1, "hspace": 1, "problemname": 1,
                     "caption": 1}.get(name, 0)
            k = re.match(r"\s*(?:\[[^\]]*\])?", tex[k:]).end() + k
            for _ in range(count):
                _, k = _argument(tex, k)
            continue
        if name in ("ref", "cref", "Cref"):
            _, k = _argument(tex, k)
            out.append("(above)")
            continue
        if name in FORMATS:
            k = re.match(r"\s*(?:\[[^\]]*\])?", tex[k:]).end() + k
            text, k = _argument(tex, k)
            out.append(FORMATS[name].format(_commands(text)))
    return "".join(out)


def _argument(tex, k):
    """The braced argument at `k` (spaces before it skipped) and the index after it; ("", k) when there is none."""
    start = k + len(tex[k:]) - len(tex[k:].lstrip())
    if start >= len(tex) or tex[start] != "{":
        return "", k
    depth = 0
    for end in range(start, len(tex)):
        depth += {"{": 1, "}": -1}.get(tex[end], 0) if tex[end - 1] != "\\" or end == start else 0
        if depth == 0:
            return tex[start + 1:end], end + 1
    return tex[start + 1:], len(tex)


if __name__ == "__main__":
    try:
        read = read_package(sys.argv[1] if len(sys.argv) > 1 else ".")
    except InputError as exc:
        print(f"codeloop: {exc}", file=sys.stderr)
        sys.exit(2)
    print(read.statement)
    print(f"\n[{read.name}: {len(read.samples)} samples, {len(read.hidden)} hidden tests ({read.missing} missing), time "
          f"limit {read.time_limit} s, float tolerance {read.float_tolerance}]")
