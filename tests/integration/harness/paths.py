"""Where the repository, the install caches and the JDK are."""

import os
import pathlib
import shutil

REPO_ROOT = pathlib.Path(__file__).resolve().parents[3]


def cache_dir() -> pathlib.Path:
    """tools/install.sh's cache (ST_CACHE_DIR, default <repo>/.cache)."""
    return pathlib.Path(os.environ.get("ST_CACHE_DIR", REPO_ROOT / ".cache"))


def jar_dir(jar_set: str) -> pathlib.Path:
    """The runtime classpath of tools/maven/<jar_set>/pom.xml.

    Raises FileNotFoundError naming the fix when install.sh has not run.
    """
    path = cache_dir() / "jars" / jar_set
    if not any(path.glob("*.jar")):
        raise FileNotFoundError(
            f"no jars in {path}; run tools/install.sh to fetch the '{jar_set}' set")
    return path


def build_dir() -> pathlib.Path:
    """The build tree whose binaries the tests run (ST_BUILD_DIR, default <repo>/build)."""
    return pathlib.Path(os.environ.get("ST_BUILD_DIR", REPO_ROOT / "build")).resolve()


def java_home() -> pathlib.Path:
    """The JDK for Kafka and Spark: ST_JAVA_HOME, else Debian's 17, else JAVA_HOME,
    else the `java` on PATH. Java 17 comes first on purpose: Spark 3.5 does not
    run on the newer JDKs some machines also carry (and may name in JAVA_HOME)."""
    candidates = []
    if os.environ.get("ST_JAVA_HOME"):
        candidates.append(pathlib.Path(os.environ["ST_JAVA_HOME"]))
    candidates.append(pathlib.Path("/usr/lib/jvm/java-17-openjdk-amd64"))
    if os.environ.get("JAVA_HOME"):
        candidates.append(pathlib.Path(os.environ["JAVA_HOME"]))
    java = shutil.which("java")
    if java:
        candidates.append(pathlib.Path(java).resolve().parent.parent)
    for home in candidates:
        if (home / "bin" / "java").exists():
            return home
    raise FileNotFoundError("no JDK found; install openjdk-17-jdk-headless or set ST_JAVA_HOME")


def java_bin() -> str:
    return str(java_home() / "bin" / "java")
