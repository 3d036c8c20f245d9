"""The README's first command: ./quickstart.sh must keep working end to end."""
import pathlib
import re
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_quickstart_writes_and_reads_back_the_sample_table():
    out = subprocess.run(["./quickstart.sh"], cwd=REPO, capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    m = re.search(r"PyIceberg: (\d+) rows in (\d+) data files, (\d+) snapshots", out.stdout)
    assert m, out.stdout
    assert (int(m.group(1)), int(m.group(3))) == (6000, 3)
    assert "DuckDB: events and revenue per country" in out.stdout
    rows = re.findall(r"\('([A-Z]{2})', (\d+), Decimal", out.stdout)
    assert sum(int(n) for _, n in rows) == 6000
