"""DuckDB with its iceberg extension, loaded offline from PyPI wheels.

DuckDB's own extension download site is unreachable here. The
duckdb-extension-<name> wheels (same version as duckdb) each ship
<site-packages>/duckdb_extension_<name>/extensions/v<version>/<name>.duckdb_extension,
which `LOAD '<path>'` accepts directly. Autoinstall and autoload are off so a
missing extension fails loudly instead of trying the network.
"""

import pathlib
from typing import Iterable, Optional

# iceberg needs avro (manifests) and parquet (data; built into the Python
# wheel, the file is loaded only if the wheel lacks it).
DEFAULT_EXTENSIONS = ("parquet", "avro", "iceberg")


def extension_path(name: str) -> pathlib.Path:
    """The .duckdb_extension file of duckdb-extension-<name> for this duckdb.

    Raises FileNotFoundError naming the wheel to install.
    """
    import importlib.util

    import duckdb

    spec = importlib.util.find_spec(f"duckdb_extension_{name}")
    version = duckdb.__version__
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"Python package duckdb-extension-{name}=={version} is not installed; "
            f"add it to tools/requirements.txt and rerun tools/install.sh")
    pkg_dir = pathlib.Path(list(spec.submodule_search_locations)[0])
    path = pkg_dir / "extensions" / f"v{version}" / f"{name}.duckdb_extension"
    if not path.exists():
        found = sorted(str(p.relative_to(pkg_dir)) for p in pkg_dir.glob("extensions/*/*.duckdb_extension"))
        raise FileNotFoundError(
            f"{path} missing: duckdb-extension-{name} does not match duckdb {version} "
            f"(it has {found}); pin both to the same version in tools/requirements.txt")
    return path


def load_extensions(conn, names: Iterable[str] = DEFAULT_EXTENSIONS) -> None:
    """LOADs each extension into `conn` unless it is already loaded (built in)."""
    loaded = {row[0] for row in conn.execute(
        "SELECT extension_name FROM duckdb_extensions() WHERE loaded").fetchall()}
    for name in names:
        if name in loaded:
            continue
        conn.execute(f"LOAD '{extension_path(name)}'")


def connect(database: str = ":memory:", extensions: Iterable[str] = DEFAULT_EXTENSIONS,
            config: Optional[dict] = None):
    """A duckdb connection with `extensions` loaded, never touching the network.

    Also enables `unsafe_enable_version_guessing`, so iceberg_scan() accepts a
    table directory without version-hint.text (our tables and PyIceberg's have
    none); scanning an explicit metadata.json path never needs it.
    """
    import duckdb

    settings = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
    settings.update(config or {})
    conn = duckdb.connect(database, config=settings)
    try:
        load_extensions(conn, extensions)
        if "iceberg" in extensions:
            conn.execute("SET unsafe_enable_version_guessing = true")
    except Exception:
        conn.close()
        raise
    return conn


def iceberg_scan_sql(metadata_location: str, columns: str = "*", allow_moved_paths: bool = False) -> str:
    """SELECT over iceberg_scan(); metadata_location is a metadata.json path or a table dir."""
    location = str(metadata_location).replace("'", "''")
    opts = ", allow_moved_paths = true" if allow_moved_paths else ""
    return f"SELECT {columns} FROM iceberg_scan('{location}'{opts})"
