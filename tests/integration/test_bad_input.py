"""Bad input through the `streamtables` command line: every case exits with
a non-zero status and a message naming what is wrong, never a crash, and
leaves an existing table untouched."""

import pathlib

import pytest

import dev_tables as dt


def _run(st_bin, *args):
    result = st_bin.run("streamtables", *args, check=False, timeout_s=120)
    assert result.returncode > 0, f"expected a clean failure, got {result.returncode}: {result.stderr}"
    return result.stderr


def _write(st_bin, wh, *extra):
    return ["dev", "write-table", "--warehouse", str(wh), "--rows", "10", *extra]


@pytest.mark.parametrize("expr,needle", [
    ("day(nope)", "no column named 'nope'"),
    ("bucket(0, id)", "not a positive integer"),
    ("bucket(id)", "takes (N, column)"),
    ("month(ts", "unbalanced"),
    ("weekday(ts)", "unknown transform"),
    ("day(ts),,id", "empty term"),
    ("hour(dt)", "hour"),
])
def test_bad_partition_expressions(st_bin, tmp_path, expr, needle):
    err = _run(st_bin, *_write(st_bin, tmp_path, "--schema", "all-types", "--partition-by", expr))
    assert needle in err
    assert not list(tmp_path.rglob("*.metadata.json"))


@pytest.mark.parametrize("args,needle", [
    (["--schema", "nope"], "--schema"),
    (["--codec", "lz4"], "--codec"),
    (["--commits", "0"], "--commits"),
    (["--namespace", "a/b"], "--namespace"),
    (["--table", ".."], "--table"),
])
def test_bad_flags(st_bin, tmp_path, args, needle):
    assert needle in _run(st_bin, *_write(st_bin, tmp_path, *args))


def test_missing_warehouse_flag(st_bin):
    assert "--warehouse" in _run(st_bin, "dev", "write-table", "--rows", "1")


def test_warehouse_is_a_file(st_bin, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    assert "streamtables dev write-table" in _run(st_bin, *_write(st_bin, f))


def test_malformed_metadata_json_is_reported_and_nothing_written(st_bin, tmp_path):
    location, _ = dt.write_table(st_bin, tmp_path, "clickstream", rows=20)
    metadata_dir = pathlib.Path(location).parent
    bad = metadata_dir / "00007-00000000-0000-0000-0000-000000000000.metadata.json"
    bad.write_text('{"format-version": 2, "table-uuid": ')
    before = sorted(p.name for p in pathlib.Path(tmp_path).rglob("*") if p.is_file())
    err = _run(st_bin, *_write(st_bin, tmp_path, "--schema", "clickstream"))
    assert "corruption" in err and bad.name in err
    after = sorted(p.name for p in pathlib.Path(tmp_path).rglob("*") if p.is_file())
    assert after == before


def test_metadata_with_missing_keys(st_bin, tmp_path):
    location, _ = dt.write_table(st_bin, tmp_path, "clickstream", rows=5)
    bad = pathlib.Path(location).parent / "00005-00000000-0000-0000-0000-000000000001.metadata.json"
    bad.write_text('{"format-version": 2}')
    err = _run(st_bin, *_write(st_bin, tmp_path, "--schema", "clickstream"))
    assert "corruption" in err


def test_future_format_version(st_bin, tmp_path):
    location, _ = dt.write_table(st_bin, tmp_path, "clickstream", rows=5)
    text = pathlib.Path(location).read_text().replace('"format-version":2', '"format-version":9')
    assert '"format-version":9' in text
    (pathlib.Path(location).parent / "00004-00000000-0000-0000-0000-000000000002.metadata.json").write_text(text)
    err = _run(st_bin, *_write(st_bin, tmp_path, "--schema", "clickstream"))
    assert "unsupported" in err


def test_continuing_with_another_schema_or_spec(st_bin, tmp_path):
    dt.write_table(st_bin, tmp_path, "clickstream", rows=5, partition_by="day(ts)")
    assert "schema" in _run(st_bin, *_write(st_bin, tmp_path, "--schema", "nested"))
    assert "partition" in _run(st_bin, *_write(st_bin, tmp_path, "--schema", "clickstream",
                                               "--partition-by", "bucket(4, id)"))


def test_continuing_keeps_row_ids_going(st_bin, tmp_path):
    dt.write_table(st_bin, tmp_path, "clickstream", rows=7, commits=2)
    location, rows = dt.write_table(st_bin, tmp_path, "clickstream", rows=3)
    assert [r["id"] for r in rows] == [14, 15, 16]
    from pyiceberg.table import StaticTable
    assert StaticTable.from_metadata(location).scan().to_arrow().num_rows == 17
