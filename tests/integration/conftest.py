"""Fixtures over real engines; the machinery lives in harness/.

Fixtures (scope):
  build_dir (session)        Path of the build tree under test (ST_BUILD_DIR).
  st_bin (function)          harness.binaries.Binaries: .path(name), .run(name, *args),
                             .start(name, *args) -> ManagedProcess (logs in the test's tmp dir,
                             stopped after the test).
  kafka (session)            harness.kafka.KafkaBroker, started: .bootstrap, .create_topic(),
                             .produce(), .consumer(), .producer(), .end_offsets(), .admin().
  kafka_factory (function)   start(extra_props=None) -> a fresh KafkaBroker of its own,
                             stopped after the test (use it to kill()/restart() a broker).
  spark (session)            local[2] SparkSession with Iceberg; started on first use.
  duckdb_conn (function)     duckdb connection with parquet/avro/iceberg loaded offline.
  iceberg_reader (function)  parametrized over harness.readers.ENGINES: a callable
                             read(metadata_location) -> list[dict]; .engine names it.
  topic_name (function)      a topic name unique to the test.
  server (session)           harness.server.StreamtablesServer, started: .api_url, .s3_url,
                             .iceberg_url, .region, .account_id, .access_key, .secret_key,
                             .data_dir, .boto3_client(service, creds=None),
                             .create_user_with_policy(name, policy) -> Credentials, .admin(...).
  fresh_server (function)    start(**kwargs) -> a StreamtablesServer of its own, stopped after
                             the test (restart it, stop it, give it its own account id).
  postgres (session)         harness.postgres.PostgresCluster, started: .url,
                             .create_database(name) -> URL, .psql(sql, url=None).

ST_IT_BACKEND=postgres+s3 runs every server these tests start on a PostgreSQL
database and an s3proxy prefix of its own (harness/backends.py); tests marked
local_store look at the data dir's files and are left out of that pass.

On a failed test, the log tail of every process that ran during it is added
to the report; the session summary lists all process logs.
"""

import os
import re
import time
import uuid

import pytest

from harness import backends, duckdb_engine, paths, readers, spark_engine
from harness.binaries import Binaries
from harness.kafka import KafkaBroker
from harness.postgres import PostgresCluster
from harness.process import REGISTRY
from harness.server import StreamtablesServer


def pytest_configure(config):
    # One zone for every engine: PySpark turns timestamps into naive datetimes
    # in the Python process's local zone.
    os.environ["TZ"] = "UTC"
    time.tzset()


def pytest_report_header(config):
    lines = [f"streamtables: build dir {paths.build_dir()}, backend {backends.BACKEND}"]
    try:
        lines.append(f"streamtables: java {paths.java_home()}, jars {paths.cache_dir() / 'jars'}")
    except FileNotFoundError as e:
        lines.append(f"streamtables: {e}")
    return lines


# ---------------------------------------------------------------- logs on failure
@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    item._st_started = time.time()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    started = getattr(item, "_st_started", 0.0)
    for proc in REGISTRY:
        if proc.alive_between(started, time.time()):
            report.sections.append(
                (f"{proc.name} log tail ({proc.log_path})", proc.tail(80)))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if exitstatus != 0 and REGISTRY:
        terminalreporter.section("process logs")
        for proc in REGISTRY:
            terminalreporter.write_line(f"{proc.name}: {proc.log_path} (exit {proc.returncode})")


def pytest_sessionfinish(session, exitstatus):
    backends.stop_shared()
    # Safety net: nothing we started may outlive the run.
    for proc in REGISTRY:
        proc.stop(timeout_s=10)


# ---------------------------------------------------------------- build tree
@pytest.fixture(scope="session")
def build_dir():
    return paths.build_dir()


@pytest.fixture
def st_bin(build_dir, tmp_path):
    binaries = Binaries(build_dir, log_dir=tmp_path / "logs")
    yield binaries
    binaries.stop_all()


# ---------------------------------------------------------------- kafka
@pytest.fixture(scope="session")
def kafka(tmp_path_factory):
    broker = KafkaBroker(tmp_path_factory.mktemp("kafka"), name="kafka")
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def kafka_factory(tmp_path_factory):
    brokers = []

    def start(extra_props=None, heap="512m"):
        broker = KafkaBroker(tmp_path_factory.mktemp("kafka-own"), extra_props=extra_props,
                             heap=heap, name=f"kafka-own-{len(brokers)}")
        brokers.append(broker)
        return broker.start()

    yield start
    for broker in brokers:
        broker.stop()


@pytest.fixture
def topic_name(request):
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", request.node.name)[:80].strip("-")
    return f"{base}-{uuid.uuid4().hex[:8]}"


# ---------------------------------------------------------------- engines
@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    session = spark_engine.make_session(tmp_path_factory.mktemp("spark"))
    yield session
    session.stop()


@pytest.fixture
def duckdb_conn():
    conn = duckdb_engine.connect()
    yield conn
    conn.close()


@pytest.fixture(params=readers.ENGINES)
def iceberg_reader(request):
    engine = request.param
    if engine == "spark":
        session = request.getfixturevalue("spark")
        reader = lambda location: readers.read_spark(session, location)  # noqa: E731
    elif engine == "duckdb":
        conn = request.getfixturevalue("duckdb_conn")
        reader = lambda location: readers.read_duckdb(conn, location)  # noqa: E731
    elif engine == "pyarrow":
        reader = readers.read_pyarrow
    else:
        reader = readers.read_pyiceberg

    def read(location):
        return reader(location)

    read.engine = engine
    return read


# ---------------------------------------------------------------- postgresql
@pytest.fixture(scope="session")
def postgres():
    shared = backends.shared_postgres()
    if shared is not None:  # ST_IT_BACKEND=postgres+s3 already runs one
        yield shared
        return
    cluster = PostgresCluster().start()
    yield cluster
    cluster.stop()


# ---------------------------------------------------------------- our server
@pytest.fixture(scope="session")
def server(tmp_path_factory, build_dir):
    srv = StreamtablesServer(tmp_path_factory.mktemp("server"), build_dir, name="server")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_server(tmp_path_factory, build_dir):
    servers = []

    def start(**kwargs):
        srv = StreamtablesServer(tmp_path_factory.mktemp("server-own"), build_dir,
                                 name=f"server-own-{len(servers)}", **kwargs)
        servers.append(srv)
        return srv.start()

    yield start
    for srv in servers:
        srv.stop()
