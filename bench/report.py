"""The numbers: a summary per (dataset, strategy), a terminal table, and report.md with SVG bar charts; and
report.html, the same as one page (pages/report_page.py) whose per-problem grid links each run's page.

The charts are plain SVG written here, so the report needs no plotting package and renders wherever
markdown shows images; report.html carries them inside itself, as data.
"""
import base64
import math
import os
import statistics
from collections import Counter
from html import escape
from pathlib import Path
from urllib.parse import quote

from pages.report_page import write_report_page
from pages.run_page import write_run_page
from utils.text_files import InputError, WriteError

COLUMNS = [("dataset", "dataset"), ("strategy", "strategy"), ("problems", "problems"),
           ("solved", "hidden pass"), ("solve_rate", "solve rate"), ("interval", "95% interval"),
           ("self_pass", "self-reported pass"),
           ("false_successes", "false successes"), ("missed", "correct but not trusted"),
           ("unconfirmed", "unconfirmed (hidden pass)"),
           ("model_failed", "model failed"), ("tokens_per_solved", "tokens per solved"),
           ("calls", "calls (mean)"), ("iterations", "iterations (mean)"), ("wall_median_s", "wall s (median)"),
           ("wall_per_solved", "wall s per solved"), ("within", "solved and right within 60/120/300 s"), ("evidence", "evidence (trusted/oracle/majority/witness/checker/guess/model/disputed)"),
           ("oracle_pass", "oracle hidden pass"), ("runaways", "runaways (tokens)"), ("model_share", "time in model")]
WITHIN_S = (60, 120, 300)  # a claim that holds, made within this many seconds
EVIDENCE = ("trusted", "oracle", "majority", "witness", "checker", "guess", "model", "disputed")


def summarize(lines):
    """One row per (dataset, strategy), in the order they first appear."""
    groups = {}
    for line in lines:
        groups.setdefault((line["dataset"], line["strategy"]), []).append(line)
    rows = []
    for (dataset, strategy), group in groups.items():
        solved = sum(line["hidden_pass"] for line in group)
        tokens = sum(line["prompt_tokens"] + line["completion_tokens"] for line in group)
        wall = sum(line["wall_s"] for line in group)
        rows.append({
            "dataset": dataset, "strategy": strategy, "problems": len(group), "solved": solved,
            "solve_rate": solved / len(group),
            # single-shot claims nothing: it has no tests, so it cannot report a false success
            "self_pass": sum(line["self_pass"] is True for line in group),
            "false_successes": sum(line["self_pass"] is True and not line["hidden_pass"] for line in group),
            "missed": sum(line["self_pass"] is False and line["hidden_pass"] for line in group),
            "unconfirmed": (f"{sum(line['status'] == 'unconfirmed' for line in group)} "
                            f"({sum(line['status'] == 'unconfirmed' and line['hidden_pass'] for line in group)})"),
            "model_failed": sum(line["status"] == "model_failed" for line in group),
            "tokens_per_solved": tokens / solved if solved else None,
            "calls": statistics.mean(line["model_calls"] for line in group),
            "iterations": statistics.mean(line["iterations"] for line in group),
            "iteration_counts": dict(sorted(Counter(line["iterations"] for line in group).items())),
            "wall_median_s": statistics.median(line["wall_s"] for line in group),
            "wall_per_solved": wall / solved if solved else None,
            "within": "/".join(str(sum(line["status"] == "solved" and line["hidden_pass"] and line["wall_s"] <= limit
                                       for line in group)) for limit in WITHIN_S),
            "interval": wilson(solved, len(group)),
            "evidence": "/".join(str(sum(_evidence(line, source) for line in group)) for source in EVIDENCE)
            if any("evidence" in line for line in group) else None,
            "oracle_pass": _share([line.get("oracle_hidden_pass") for line in group]),
            "runaways": (f"{sum(line.get('runaways') or 0 for line in group)} "
                         f"({sum(line.get('runaway_tokens') or 0 for line in group):,})")
            if any(line.get("runaways") is not None for line in group) else None,
            "model_share": sum(line["model_s"] for line in group) / wall if wall else 0.0})
    return rows


FAILURES = ("generation", "selection", "time")


def failure_kind(line):
    """Where an unsolved run (hidden tests failed) went wrong: no program it wrote passes the hidden tests
    (generation), one did but another was handed over (selection), or none did and the run's time or budget
    ended it first (time). None for a run the hidden tests pass, or one whose programs were not judged."""
    if line["hidden_pass"] or not line.get("versions"):
        return None
    if line["versions"]["right"]:
        return "selection"
    return "time" if line.get("ended_by_budget") else "generation"


# The order of a field's values in its table; any other value after them, then the "all" row
ORDER = {"difficulty": ("easy", "medium", "hard"), "family": ("plain", "tree", "design", "in-place", "stdio")}


def rows_by(lines, field):
    """One row per (dataset, strategy, the line's `field`: difficulty or family), in ORDER, with an "all" row
    after them: issue 76's table by difficulty, issue 79's by family. A line recorded before a field was has "-"
    there (a family: plain, the only one there was)."""
    missing = "plain" if field == "family" else "-"
    groups = {}
    for line in lines:
        for value in (line.get(field) or missing, "all"):
            groups.setdefault((line["dataset"], line["strategy"], value), []).append(line)
    order = {value: k for k, value in enumerate(ORDER.get(field, ()))} | {"all": 99}
    rows = []
    for (dataset, strategy, value), group in sorted(groups.items(), key=lambda item: (
            item[0][0], item[0][1], order.get(item[0][2], 50))):
        walls = sorted(line["wall_s"] for line in group)
        unsolved = [line["wall_s"] for line in group if not (line["status"] == "solved")]
        kinds = Counter(failure_kind(line) for line in group)
        rows.append({
            "dataset": dataset, "strategy": strategy, field: value, "problems": len(group),
            "solved": sum(line["hidden_pass"] for line in group),
            "claims": sum(line["self_pass"] is True for line in group),
            "false_successes": sum(line["self_pass"] is True and not line["hidden_pass"] for line in group),
            "missed": sum(line["self_pass"] is False and line["hidden_pass"] for line in group),
            "wall_median_s": statistics.median(walls), "wall_p90_s": percentile(walls, 0.9),
            "unsolved_median_s": statistics.median(unsolved) if unsolved else None,
            "failures": "/".join(str(kinds[kind]) for kind in FAILURES)
            if any(line.get("versions") for line in group) else None})
    return rows


def columns_by(field):
    """The columns of rows_by(lines, field)'s table."""
    return [("dataset", "dataset"), ("strategy", "strategy"), (field, field), ("problems", "problems"),
            ("solved", "hidden pass"), ("claims", "claims"), ("false_successes", "false successes"),
            ("missed", "correct but not trusted"), ("wall_median_s", "wall s (median)"),
            ("wall_p90_s", "wall s (90th percentile)"), ("unsolved_median_s", "wall s of runs not solved (median)"),
            ("failures", "failed: generation/selection/time")]


REPEAT_COLUMNS = [("dataset", "dataset"), ("strategy", "strategy"), ("runs", "runs"), ("draws", "draws"),
                  ("text", "repeats by text"), ("behaviour", "repeats by behaviour"), ("share", "share repeated")]


def repeat_rows(lines):
    """Per (dataset, strategy), over the runs whose record was read: ImplementFunction's draws, and how many were a
    program the run already had, by text and by behaviour (the text's included): issue 89's "every draw a
    different program" (harness.draws_repeated)."""
    groups = {}
    for line in lines:
        if line.get("repeats"):
            groups.setdefault((line["dataset"], line["strategy"]), []).append(line["repeats"])
    rows = []
    for (dataset, strategy), counts in groups.items():
        draws, behaviour = sum(c["draws"] for c in counts), sum(c["behaviour"] for c in counts)
        rows.append({"dataset": dataset, "strategy": strategy, "runs": len(counts), "draws": draws,
                     "text": sum(c["text"] for c in counts), "behaviour": behaviour,
                     "share": f"{behaviour / draws:.0%}" if draws else None})
    return rows


def repeats_by_run(lines):
    """The runs with a repeated draw, each with its counts and which attempt repeats which, for report.md."""
    rows = ["| dataset | strategy | problem | draws | by text | by behaviour | repeats (new = earlier, how) |",
            "|---|---|---|---|---|---|---|"]
    for line in lines:
        counts = line.get("repeats")
        if counts and counts["behaviour"]:
            pairs = ", ".join(f"{new or 'not made'} = {old} ({how})" for new, old, how in counts["pairs"])
            rows.append(f"| {line['dataset']} | {line['strategy']} | {line['id']} | {counts['draws']} | {counts['text']} | "
                        f"{counts['behaviour']} | {pairs} |")
    return rows if len(rows) > 2 else []


def percentile(ordered, share):
    """The value below which `share` of the sorted values lie (nearest rank)."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def wilson(successes, trials, z=1.96):
    """The 95% Wilson score interval of a proportion, as (low, high)."""
    if not trials:
        return None
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = z * ((share * (1 - share) / trials + z * z / (4 * trials * trials)) ** 0.5) / (1 + z * z / trials)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def _evidence(line, source):
    counts = line.get("evidence") or {}
    merged = {"trusted": ("statement", "user"), "guess": ("guess", "solution_guess")}  # a program and the guess agree
    return sum(counts.get(name, 0) for name in merged.get(source, (source,)))


def _share(values):
    known = [value for value in values if value is not None]
    return f"{sum(known)}/{len(known)}" if known else None


def cell(key, value):
    if value is None:
        return "-"
    if key == "solve_rate":
        return f"{value:.0%}"
    if key == "interval":
        return f"{value[0]:.0%}-{value[1]:.0%}"
    if key == "model_share":
        return f"{value:.1%}"
    if key == "tokens_per_solved":
        return f"{value:,.0f}"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def table(rows, markdown=False, columns=COLUMNS):
    header = [title for _, title in columns]
    body = [[cell(key, row[key]) for key, _ in columns] for row in rows]
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])
    widths = [max(len(str(x)) for x in column) for column in zip(header, *body)]
    return "\n".join("  ".join(str(x).ljust(w) for x, w in zip(r, widths)) for r in [header] + body)


def bar_chart(title, labels, values, unit=""):
    """A horizontal bar chart as SVG text; None values are drawn as 'n/a'."""
    width, left, bar, gap = 640, 230, 22, 8
    top = 34
    height = top + len(labels) * (bar + gap) + 10
    biggest = max([v for v in values if v is not None] or [1]) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             f'font-size="13"><rect width="100%" height="100%" fill="white"/>',
             f'<text x="10" y="20" font-size="15" font-weight="bold">{escape(title)}</text>']
    for i, (label, value) in enumerate(zip(labels, values)):
        y = top + i * (bar + gap)
        parts.append(f'<text x="{left - 8}" y="{y + 16}" text-anchor="end">{escape(label)}</text>')
        if value is None:
            parts.append(f'<text x="{left + 4}" y="{y + 16}" fill="#777">n/a</text>')
            continue
        length = (width - left - 90) * value / biggest
        parts.append(f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar}" fill="#4a78b5"/>')
        parts.append(f'<text x="{left + length + 6:.1f}" y="{y + 16}">{escape(unit.format(value))}</text>')
    return "\n".join(parts + ["</svg>\n"])


COLOURS = ["#4a78b5", "#d9822b", "#3a9a4a", "#b54a6a", "#7a5ab5", "#8a8a2a"]


def line_chart(title, x_label, y_label, series):
    """A line chart as SVG text: `series` maps a label to its y values at x = 1, 2, ...; y from 0 to 1."""
    width, height, left, right, top, bottom = 560, 330, 56, 150, 34, 44
    longest = max(len(values) for values in series.values())

    def x_of(k):
        return left + (width - left - right) * ((k - 1) / max(longest - 1, 1))

    def y_of(v):
        return top + (height - top - bottom) * (1 - v)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             f'font-size="13"><rect width="100%" height="100%" fill="white"/>',
             f'<text x="10" y="20" font-size="15" font-weight="bold">{escape(title)}</text>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{left}" y1="{y_of(tick):.1f}" x2="{width - right}" y2="{y_of(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y_of(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
    for k in range(1, longest + 1):
        parts.append(f'<text x="{x_of(k):.1f}" y="{height - bottom + 18}" text-anchor="middle">{k}</text>')
    parts.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 8}" text-anchor="middle">{escape(x_label)}</text>')
    parts.append(f'<text x="14" y="{(top + height - bottom) / 2:.0f}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(top + height - bottom) / 2:.0f})">{escape(y_label)}</text>')
    for i, (label, values) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{x_of(k):.1f},{y_of(v):.1f}" for k, v in enumerate(values, 1))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts += [f'<circle cx="{x_of(k):.1f}" cy="{y_of(v):.1f}" r="3" fill="{colour}"/>' for k, v in enumerate(values, 1)]
        y = top + 10 + 20 * i
        parts.append(f'<line x1="{width - right + 12}" y1="{y}" x2="{width - right + 32}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{width - right + 38}" y="{y + 4}">{escape(label)}</text>')
    return "\n".join(parts + ["</svg>\n"])


CHARTS = [("solve_rate.svg", "Solve rate on hidden tests", "solve_rate", "{:.0%}"),
          ("false_successes.svg", "False successes (self-reported pass, hidden fail)", "false_successes", "{:d}"),
          ("tokens_per_solved.svg", "Tokens per solved problem", "tokens_per_solved", "{:,.0f}"),
          ("iterations.svg", "Iterations (rounds of RunTests), mean", "iterations", "{:.2f}")]


NOTES = {  # what a column means, said under its table in report.md and report.html
    "failed": "runs the hidden tests fail, by where: no program the run wrote passes them (generation), one did but "
              "was not handed over (selection), none did and the time or budget ended the run (time).",
    "family": "plain (values in, a value returned), tree (TreeNode / ListNode), design (a class's operations "
              "replayed), in-place (an argument changed) or stdio (a whole program, texts in and out): core/problem_kind.py.",
    "false successes": "the run said every one of its own tests passed, the hidden tests disagree.",
    "correct but not trusted": "the hidden tests pass, but the run ended without its own tests passing.",
    "unconfirmed": "the run's code passed every test that counts, but the programs disagreed on some inputs or no "
                   "test came from the statement, so it did not claim success (in brackets: how many of those pass "
                   "the hidden tests; they are among the correct but not trusted).",
    "tokens per solved": "all prompt and completion tokens of the group, divided by the problems solved.",
    "repeats": "draws are the candidates ImplementFunction asked for. By text: the code of an earlier attempt of the run, "
               "or the same after renaming, comments and layout (core/source_code.py). By behaviour: those, and "
               "candidates whose outputs equal an earlier program's (a candidate, the oracle, a revision) on every test "
               "input of the round they were first run in (the same error type raised counts as the same output)."}
GRID_NOTE = ("PASS / fail on the hidden tests; *self* marks a run that claimed success; *model failed*, *unconfirmed* "
             "and *untested* are the run's own ending.")


def write_report(out_dir, rows, lines, setup, difficulty_rows=(), family_rows=(), repeats=()):
    """report.md and report.html (and the SVG charts) in out_dir; returns report.md's path."""
    labels = [f"{row['dataset']} / {row['strategy']}" for row in rows]
    charts = [(name, title, bar_chart(title, labels, [row[key] for row in rows], unit)) for name, title, key, unit in CHARTS]
    for name, _, svg in charts:
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(svg)
    tables = [(title, columns, chosen, notes) for title, columns, chosen, notes in (
        ("Summary", COLUMNS, rows, ()), ("By difficulty", columns_by("difficulty"), difficulty_rows, ("failed",)),
        ("By family", columns_by("family"), family_rows, ("family",)),
        ("Repeated draws", REPEAT_COLUMNS, list(repeats), ("repeats",))) if chosen]
    strategies = list(dict.fromkeys(line["strategy"] for line in lines))
    per_problem = {}
    for line in lines:
        per_problem.setdefault((line["dataset"], line["id"]), {})[line["strategy"]] = line
    iterations = "; ".join(f"{row['dataset']} / {row['strategy']}: {row['iteration_counts']}" for row in rows)
    write_report_page(os.path.join(out_dir, "report.html"), report_page(out_dir, setup, tables, charts, strategies,
                                                                         per_problem, iterations))
    grid = ["| dataset | problem | " + " | ".join(strategies) + " |", "|---|---|" + "---|" * len(strategies)]
    for (dataset, problem_id), by_strategy in per_problem.items():
        grid.append(f"| {dataset} | {problem_id} | " + " | ".join(_verdict(by_strategy.get(s)) for s in strategies) + " |")
    text = ["# codeloop benchmark report", "", *[f"- {name}: {said}" for name, said in setup_lines(setup)],
            "- commands:", *[f"  - `{command}`" for command in setup.get("commands", [])], ""]
    for title, columns, chosen, notes in tables:
        text += [f"## {title}", "", table(chosen, markdown=True, columns=columns), "",
                 *[f"- *{note}*: {NOTES[note]}" for note in notes], *([""] if notes else [])]
        if title == "Repeated draws":
            text += [*repeats_by_run(lines), ""]
    text += [*[f"- *{note}*: {NOTES[note]}" for note in ("false successes", "correct but not trusted", "unconfirmed",
                                                         "tokens per solved")],
             f"- iterations per problem: {iterations}", "", "## Charts", "",
             *[f"![{title}]({name})" for name, title, _ in charts], "", "## Per problem", "", GRID_NOTE, "", *grid, ""]
    path = os.path.join(out_dir, "report.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(text))
    return path


def setup_lines(setup):
    return [("model", f"{setup.get('model')} at {setup.get('server')}"),
            ("code version", f"{setup.get('git_commit')}{' (with uncommitted changes)' if setup.get('git_dirty') else ''}"),
            ("sandbox", f"{setup.get('isolation')}; workers: {setup.get('workers')}")]


def report_page(out_dir, setup, tables, charts, strategies, per_problem, iterations):
    """What report.html shows (pages/templates/report.html): the tables, the charts as images inside the page, and
    the per-problem grid, each cell linking to its run's page."""
    pages = run_pages(out_dir, [line for by_strategy in per_problem.values() for line in by_strategy.values()])
    grid = [{"dataset": dataset, "problem": problem_id, "cells": [
        {"said": _verdict(line), "passed": bool(line and line["hidden_pass"]),
         "href": pages.get((line["dataset"], line["strategy"], line["id"])) if line else None}
        for line in map(by_strategy.get, strategies)]} for (dataset, problem_id), by_strategy in per_problem.items()]
    return {"setup": setup_lines(setup), "commands": setup.get("commands", []), "iterations": iterations,
            "tables": [{"title": title, "header": [name for _, name in columns],
                        "rows": [[cell(key, row[key]) for key, _ in columns] for row in chosen],
                        "notes": [(note, NOTES[note]) for note in notes]} for title, columns, chosen, notes in tables],
            "notes": [(note, NOTES[note]) for note in ("false successes", "correct but not trusted", "unconfirmed",
                                                       "tokens per solved")],
            "charts": [{"title": title, "src": "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()}
                       for _, title, svg in charts],
            "strategies": strategies, "grid": grid, "grid_note": GRID_NOTE.replace("*", "")}


def run_pages(out_dir, lines):
    """{(dataset, strategy, id): the run page's link from out_dir}, each page written from its run.json where it
    is missing (a run recorded before runs wrote one; an archive, which keeps run.json alone)."""
    links = {}
    for line in lines:
        folder = run_folder(out_dir, line)
        if folder is None:
            continue
        page = os.path.join(folder, "run.html")
        try:
            if not os.path.exists(page):
                write_run_page(folder)
        except (InputError, WriteError):  # a record that cannot be read or a folder not writable: no link
            continue
        links[(line["dataset"], line["strategy"], line["id"])] = quote(os.path.relpath(page, out_dir).replace(os.sep, "/"))
    return links


def run_folder(out_dir, line):
    """A line's run folder: where it was made, else the harness's runs/SET/STRATEGY/PROBLEM under out_dir (the
    folder moved, or unpacked from an archive elsewhere); None without a run.json."""
    made = line.get("run_dir")
    for folder in ([made, os.path.join(out_dir, "runs", *Path(made).parts[-3:])] if made else []):
        if os.path.isfile(os.path.join(folder, "run.json")):
            return folder
    return None


def _verdict(line):
    if line is None:
        return ""
    verdict = "PASS" if line["hidden_pass"] else "fail"
    if line["status"] in ("model_failed", "unconfirmed"):
        return f"{verdict} ({line['status'].replace('_', ' ')})"
    return f"{verdict} (self)" if line["self_pass"] else verdict
