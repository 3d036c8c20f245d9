"""A local Spark 3.5 session that reads Iceberg tables.

One session per test run (JVM start costs ~10 s). The Iceberg runtime and
AWS bundle jars come from .cache/jars/spark-iceberg/ (tools/install.sh).
Tables are read by metadata path:
    spark.read.format("iceberg").load("/abs/path/metadata/00001-x.metadata.json")
and, for SQL, the Hadoop catalog `local` is configured over `warehouse_dir`.
"""

import os
import pathlib
import sys
from typing import Sequence

from . import paths

_LOG4J2 = """\
rootLogger.level=WARN
rootLogger.appenderRef.stdout.ref=console
appender.console.type=Console
appender.console.name=console
appender.console.target=SYSTEM_ERR
appender.console.layout.type=PatternLayout
appender.console.layout.pattern=%d{HH:mm:ss} %p %c{1}: %m%n%ex
logger.hadoop.name=org.apache.hadoop
logger.hadoop.level=ERROR
logger.spark.name=org.apache.spark
logger.spark.level=WARN
logger.sparkutil.name=org.apache.spark.util.Utils
logger.sparkutil.level=ERROR
logger.iceberg.name=org.apache.iceberg
logger.iceberg.level=WARN
"""


def make_session(work_dir: pathlib.Path, app_name: str = "streamtables-tests",
                 extra_jars: Sequence[str] = ()):
    """Starts (or returns the already started) local[2] SparkSession.

    `extra_jars` join the Iceberg runtime on the classpath (e.g. the Kafka
    source of bench/peer_delivery_bench.py).

    `work_dir` holds the warehouse of the `local` catalog, Spark's scratch
    space and the driver's log4j2 config. The caller stops the session.
    """
    work_dir = pathlib.Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    os.environ["JAVA_HOME"] = str(paths.java_home())
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # Through the environment: setting spark.local.dir makes Spark warn.
    os.environ["SPARK_LOCAL_DIRS"] = str(work_dir / "scratch")
    # pyspark's launcher must not pick up a SPARK_HOME from elsewhere.
    os.environ.pop("SPARK_HOME", None)
    # Python workers (UDFs, createDataFrame from Python data) must use this
    # interpreter, not whatever `python3` is on PATH.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    log_config = work_dir / "log4j2.properties"
    log_config.write_text(_LOG4J2)
    jars = sorted(str(p) for p in paths.jar_dir("spark-iceberg").glob("*.jar")) + list(extra_jars)
    warehouse = work_dir / "warehouse"
    java_opts = f"-Dlog4j2.configurationFile=file:{log_config} -Djava.awt.headless=true"

    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]").appName(app_name)
        .config("spark.jars", ",".join(jars))
        .config("spark.driver.memory", "1g")
        .config("spark.driver.extraJavaOptions", java_opts)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.sql.warehouse.dir", str(work_dir / "spark-warehouse"))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config("spark.sql.catalog.local", "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog.local.type", "hadoop")
        .config("spark.sql.catalog.local.warehouse", str(warehouse))
    )
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("WARN")
    return session


def read_iceberg(spark, metadata_location: str):
    """A DataFrame over the table whose metadata.json (or table dir) is given."""
    return spark.read.format("iceberg").load(str(metadata_location))
