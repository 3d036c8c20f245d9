"""Several replicas on one catalog (issue 13 items 3 and 5): three
`streamtables server` processes share a PostgreSQL catalog (--catalog), an
s3proxy object store (--object-store), the three key files and the account id.
Exactly one holds the "coordinator" lease (streamtables_lease_holder on
/metrics, every series labelled with its replica). The holder is killed
with SIGKILL, so it cannot release the lease; another replica must report
holding it within the documented bound (TTL 15 s + renew period 5 s +
reconcile interval); a channel created on a survivor during the outage stays
CREATING while nobody holds the lease, then becomes ACTIVE and delivers rows
that PyIceberg reads back. /ready answers 200 on the live replicas. A clean
stop of the new holder releases the lease, so the last replica takes it
within one renew interval; /ready there answers 503 with a reason once the
object store is gone.
"""

import json
import os
import re
import time
import uuid

import pytest
import requests

from harness.channels import ChannelSetup
from harness.s3proxy import S3Proxy
from harness.server import StreamtablesServer
from test_avro_channel import wait_for

ACCOUNT = "424242424242"
# docs/replicas.md: the lease's TTL, plus one renew period for the
# survivor's next attempt, plus a reconcile interval; slack for a loaded CI box.
TAKEOVER_BOUND_S = 15 + 5 + 1
SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"}},
    "required": ["id", "ts"],
}
HOLDER = re.compile(r'^streamtables_lease_holder\{([^}]*)\} (\d+)$', re.M)


@pytest.fixture
def s3proxy(tmp_path_factory):
    proxy = S3Proxy(tmp_path_factory.mktemp("s3proxy-replicas")).start()
    yield proxy
    proxy.stop()


def lease_state(server):
    """(holds the coordinator lease, the replica label) from /metrics."""
    text = server.metrics_text()
    for labels, value in HOLDER.findall(text):
        if 'lease="coordinator"' in labels:
            replica = re.search(r'replica="([^"]+)"', labels)
            assert replica, f"lease gauge without a replica label: {labels}"
            return value == "1", replica.group(1)
    raise AssertionError(f"no streamtables_lease_holder gauge in:\n{text[:2000]}")


def holders(servers):
    return [s for s in servers if s.running and lease_state(s)[0]]


def record(n):
    return json.dumps({"id": n, "ts": "2026-12-04T01:00:00Z"}).encode()


def test_lease_moves_to_a_survivor_when_the_holder_is_killed(tmp_path, build_dir, postgres,
                                                             s3proxy, kafka, topic_name):
    url = postgres.create_database(f"replicas_{uuid.uuid4().hex[:8]}")
    keys = tmp_path / "shared-keys"
    keys.mkdir(mode=0o700)
    for name in ("master.key", "kms-master.key", "sse-s3.key"):
        (keys / name).write_text(os.urandom(32).hex() + "\n")
        (keys / name).chmod(0o600)
    servers = []
    try:
        for i in range(3):
            work = tmp_path / f"replica-{i}"
            work.mkdir()
            srv = StreamtablesServer(
                work, build_dir, name=f"replica-{i}", account_id=ACCOUNT,
                env=s3proxy.credentials_env(),
                extra_args=["--catalog", url, "--object-store", s3proxy.object_store_url("t"),
                            "--master-key-file", str(keys / "master.key"),
                            "--kms-master-key-file", str(keys / "kms-master.key"),
                            "--sse-s3-key-file", str(keys / "sse-s3.key"),
                            "--replica-id", f"replica-{i}"])
            servers.append(srv.start())

        # Every series carries its replica; exactly one replica leads.
        for srv in servers:
            text = srv.metrics_text()
            samples = [line for line in text.splitlines() if line and not line.startswith("#")]
            assert samples
            unlabelled = [s for s in samples if f'replica="{srv.name}"' not in s]
            assert not unlabelled, unlabelled[:5]
            r = requests.get(srv.api_url + "/ready", timeout=10)
            assert r.status_code == 200, r.text
            assert r.json()["status"] == "ready"
        leader = wait_for(lambda: holders(servers), 20, "a lease holder")
        assert len(leader) == 1, [s.name for s in leader]
        leader = leader[0]
        survivors = [s for s in servers if s is not leader]

        kafka.create_topic(topic_name, partitions=3)
        # kill -9: no clean release, the survivors must wait for the TTL.
        killed_at = time.monotonic()
        leader.proc.kill()
        front = survivors[0]
        channel = ChannelSetup.create(front, kafka, topic_name, schema=SCHEMA, freshness=1)
        # Nobody holds the lease yet (the dead holder's has not expired), so
        # nobody activates the channel: transitions are the holder's alone.
        time.sleep(2)
        assert not holders(survivors)
        assert channel.describe()["Status"] == "CREATING"
        new_leader = wait_for(lambda: holders(survivors), TAKEOVER_BOUND_S + 5, "a new holder")
        took_over_s = time.monotonic() - killed_at
        print(f"take-over after SIGKILL: {took_over_s:.1f} s by {new_leader[0].name}")
        assert len(new_leader) == 1
        assert took_over_s <= TAKEOVER_BOUND_S, took_over_s

        channel.wait_status("ACTIVE", timeout_s=30)
        count = 300
        kafka.produce(topic_name, [record(n) for n in range(count)],
                      keys=[f"k{n}".encode() for n in range(count)])
        data = channel.wait_rows(count, timeout_s=90)
        assert sorted(data.column("id").to_pylist()) == list(range(count))

        for srv in survivors:
            r = requests.get(srv.api_url + "/ready", timeout=10)
            assert r.status_code == 200, r.text
            # The other survivor reports that it does not hold the lease.
            assert lease_state(srv)[0] == (srv is new_leader[0])

        # A clean stop (SIGTERM) releases the lease: the last replica takes it
        # at its next attempt (renew interval 5 s), not after the TTL.
        last = next(s for s in survivors if s is not new_leader[0])
        assert new_leader[0].stop() == 0
        stopped_at = time.monotonic()
        wait_for(lambda: holders([last]), 5 + 3, "the last replica holding the lease")
        print(f"take-over after SIGTERM: {time.monotonic() - stopped_at:.1f} s")

        # The object store gone: /ready says so with a reason; /health does not care.
        s3proxy.stop()
        r = requests.get(last.api_url + "/ready", timeout=60)
        assert r.status_code == 503, r.text
        assert r.json()["status"] == "not_ready"
        assert "object store" in r.json()["reason"], r.text
        assert requests.get(last.api_url + "/health", timeout=10).status_code == 200
    finally:
        for srv in servers:
            srv.stop()
