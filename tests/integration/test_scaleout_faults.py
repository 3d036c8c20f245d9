"""The scale-out stores failing under a delivering channel (issue 13): the
server runs with its catalog on a real PostgreSQL and its table data in a
real s3proxy, a producer writes 2,000 records/s, and

- PostgreSQL is stopped for 15 s and started again (same port, same data):
  /metrics reports the stall and names the database error while it is down
  (DescribeChannel itself needs the catalog then), the channel recovers by
  itself, and every Kafka offset is in the table or the dead-letter queue
  exactly once;
- s3proxy is stopped for 30 s and started again: DescribeChannel's stateInfo
  (DELIVERY_STALLED) and /metrics say why while it is down, the channel
  recovers by itself, and every offset is there exactly once.

Each test prints the recovery times it measured; the bound is the one of
test_delivery_faults (the worker's longest backoff plus a flush and a commit).
"""

import time
import uuid

import pytest

from harness.channels import ChannelSetup
from harness.exactly_once import SCHEMA, channel_metric
from harness.postgres import PostgresCluster
from harness.s3proxy import S3Proxy
from harness.server import StreamtablesServer
from test_delivery_faults import FRESHNESS_S, PARTITIONS, recover_and_verify, start_load

DOWN_PG_S = 15
DOWN_S3_S = 30


@pytest.fixture
def stores(tmp_path):
    cluster = PostgresCluster().start()
    proxy = S3Proxy(tmp_path / "s3proxy").start()
    yield cluster, proxy
    proxy.stop()
    cluster.stop()


def scaleout_server(tmp_path, build_dir, cluster, proxy) -> StreamtablesServer:
    url = cluster.create_database(f"faults_{uuid.uuid4().hex[:8]}")
    server = StreamtablesServer(tmp_path / "server", build_dir, name="server-scaleout",
                                extra_args=["--catalog", url, "--object-store",
                                            proxy.object_store_url("faults")],
                                env=proxy.credentials_env())
    return server.start()


def stalled_metric_lines(channel) -> tuple:
    text = channel.metrics_text()
    arn = channel.channel_arn
    errors = [line for line in text.splitlines()
              if line.startswith("streamtables_delivery_last_error_info{") and arn in line]
    return channel_metric(text, "streamtables_delivery_stalled", arn), errors


@pytest.fixture
def delivering(tmp_path, build_dir, kafka, topic_name, stores):
    """A server on its own PostgreSQL and s3proxy with a channel taking 2,000
    records/s: (cluster, proxy, channel, load, watch, commits so far)."""
    cluster, proxy = stores
    server = scaleout_server(tmp_path, build_dir, cluster, proxy)
    load = None
    try:
        kafka.create_topic(topic_name, partitions=PARTITIONS)
        channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA,
                                      freshness=FRESHNESS_S)
        load, watch = start_load(channel, kafka, topic_name)
        time.sleep(2)
        yield cluster, proxy, channel, load, watch, watch.sample()["commits"]
    finally:
        if load is not None:
            load._stop.set()  # recover_and_verify has stopped it unless the test failed
        server.stop()


def test_postgresql_restart_mid_delivery_recovers_exactly_once(kafka, delivering):
    cluster, _, channel, load, _, committed_before = delivering
    cluster.stop_server()
    down = time.monotonic()
    reports = []
    while time.monotonic() - down < DOWN_PG_S:
        stalled, errors = stalled_metric_lines(channel)
        if stalled == 1 and errors:
            reports.append((time.monotonic() - down, errors[0]))
        time.sleep(0.5)
    cluster.resume_server()
    back = time.monotonic()
    assert reports, f"/metrics never reported the stall in {DOWN_PG_S}s without PostgreSQL"
    print(f"\nPostgreSQL down {back - down:.1f}s; stall on /metrics after "
          f"{reports[0][0]:.1f}s: {reports[0][1][:200]}")
    measured = recover_and_verify(channel, load, kafka, back, committed_before, load.produced,
                                  f"PostgreSQL down {DOWN_PG_S}s")
    assert measured["first_commit_s"] <= 30


def test_object_store_outage_30s_reports_why_and_recovers_exactly_once(kafka, delivering):
    _, proxy, channel, load, watch, committed_before = delivering
    proxy.stop()
    down = time.monotonic()
    stalled = watch.stalls_during(DOWN_S3_S)
    proxy.start()
    back = time.monotonic()
    assert stalled, f"no stall reported while the object store was down {DOWN_S3_S}s"
    info = next((s["state_info"] for s in stalled if s["state_info"]), None)
    assert info is not None, "DescribeChannel never showed a stateInfo"
    assert info["Code"] == "DELIVERY_STALLED", info
    assert f"data freshness of {FRESHNESS_S} s" in info["Message"], info
    assert "object store s3://" in info["Message"], info  # Says what is unreachable.
    assert all(s["status"] == "ACTIVE" for s in stalled)
    assert any(s["stalled"] == 1 for s in stalled), "/metrics never said stalled"
    print(f"\nobject store down {back - down:.1f}s; stateInfo: {info['Message'][:300]}")
    measured = recover_and_verify(channel, load, kafka, back, committed_before, load.produced,
                                  f"object store down {DOWN_S3_S}s")
    assert measured["first_commit_s"] <= 30
