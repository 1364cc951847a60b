"""python -m bench.archive DIR [DIR ...] --to FOLDER: a benchmark folder as one small file that git can keep.

A bench folder (--out of `python -m bench`) lives outside the repository and goes with the machine it was
made on: the figures docs/results.md and docs/journal/ cite then point at folders nobody can open. This packs each DIR's
results.jsonl and every run's run.json (what `python -m bench --report-only` and bench/replay_model.py need; not the
exported solution.py and test_solution.py, which run.json holds too) into FOLDER/NAME.tar.gz, NAME being
DIR's last part. Each result line's run_dir is rewritten to `bench-results/NAME/...`, so that unpacked from
the repository's root (`tar -xzf FOLDER/NAME.tar.gz`) the folder reads as it did where it was made:

    python -m bench.archive /work/bench-results/s35-he1 --to docs/records
    tar -xzf docs/records/s35-he1.tar.gz
    python -m bench --report-only --dataset humaneval --out bench-results/s35-he1   # its table, failures split

A DIR without results.jsonl is one line on stderr and exit 2; an archive already there is replaced. An archive
kept in docs/records gets its line in docs/records/README.md, saying what it backs (tests/test_docs.py checks).
"""
import argparse
import gzip
import io
import json
import sys
import tarfile
from pathlib import Path

ROOT = "bench-results"


def add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), 0, 0o644  # no clock in the file: one folder packs to the same bytes
    tar.addfile(info, io.BytesIO(data))


def within(run_dir, folder):
    """run_dir's place inside the bench folder; a folder moved since keeps the harness's runs/SET/STRATEGY/PROBLEM."""
    try:
        return run_dir.relative_to(folder)
    except ValueError:
        return Path("runs", *run_dir.parts[-3:])


def pack(folder, to):
    """FOLDER/NAME.tar.gz from the bench folder `folder`; returns its path and the runs it holds."""
    folder, name = Path(folder), Path(folder).resolve().name
    lines, runs = [], {}  # {path in the archive: run.json}: a problem run again keeps one record per run folder
    for line in filter(str.strip, (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()):
        row = json.loads(line)
        record = Path(row.get("run_dir") or "") / "run.json"
        if row.get("run_dir") and record.is_file():
            inside = within(Path(row["run_dir"]).resolve(), folder.resolve())
            row["run_dir"] = f"{ROOT}/{name}/{inside.as_posix()}"
            runs[f"{row['run_dir']}/run.json"] = record.read_bytes()
        lines.append(json.dumps(row) + "\n")
    target = Path(to) / f"{name}.tar.gz"
    target.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(target, "wb", compresslevel=9, mtime=0) as packed, tarfile.open(fileobj=packed, mode="w") as tar:
        add(tar, f"{ROOT}/{name}/results.jsonl", "".join(lines).encode())
        for path, data in runs.items():
            add(tar, path, data)
    return target, len(runs)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.archive", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark folders (--out of python -m bench)")
    parser.add_argument("--to", required=True, metavar="FOLDER", help="where NAME.tar.gz goes (docs/records)")
    args = parser.parse_args(argv)
    missing = [folder for folder in args.folders if not (Path(folder) / "results.jsonl").is_file()]
    if missing:
        print(f"python -m bench.archive: no results.jsonl in {missing[0]}", file=sys.stderr)
        return 2
    for folder in args.folders:
        target, count = pack(folder, args.to)
        print(f"{target}: {count} runs, {target.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
