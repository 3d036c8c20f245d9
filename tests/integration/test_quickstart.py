"""The README's first command: ./quickstart.sh must keep working end to end
(Kafka → channel → table, read back by PyIceberg and DuckDB)."""
import pathlib
import re
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_quickstart_delivers_the_sample_events_and_reads_them_back():
    out = subprocess.run(["./quickstart.sh"], cwd=REPO, capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert re.search(r"channel arn:aws:kafka:\S+ is ACTIVE", out.stdout), out.stdout
    m = re.search(r"PyIceberg: (\d+) rows in (\d+) data files, (\d+) snapshots", out.stdout)
    assert m, out.stdout
    assert int(m.group(1)) == 5000
    assert "DuckDB: events and revenue per country" in out.stdout
    rows = re.findall(r"\('([A-Z]{2})', (\d+), Decimal", out.stdout)
    assert sum(int(n) for _, n in rows) == 5000
