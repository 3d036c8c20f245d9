"""Delivery under faults (issue 9 item 10), through the real server, a real
Kafka broker, boto3 `kafka` and PyIceberg:

- the server's data dir is a small filesystem the test mounts (tmpfs, or an
  ext4 loop device when tmpfs cannot be mounted) and fills with a ballast file
  for 20 s while a producer writes 2,000 records/s: DescribeChannel and
  /metrics report the stall with the error while it is full, the channel
  recovers by itself once the ballast is removed, and every Kafka offset is in
  the table (or the dead-letter queue) exactly once;
- a broker restart mid-delivery and a 30 s SIGSTOP of the server recover the
  same way.

Each test prints the recovery times it measured. The only skip: the
filesystem test when neither a tmpfs nor a loop device can be mounted (no
privilege), with the reason.
"""

import contextlib
import errno
import os
import pathlib
import subprocess
import time

import pytest

import harness.channels
from harness.channels import ChannelSetup
from harness.exactly_once import SCHEMA, SteadyProducer, channel_metric, verify_exactly_once
from harness.server import StreamtablesServer

RATE = 2000  # Records per second, as in the chaos run.
PARTITIONS = 4
FRESHNESS_S = 2
FULL_FOR_S = 20
BAD_EVERY = 997  # A few records go to the dead-letter queue, which must be retried too.
# Slowest acceptable recovery after the fault ends: the worker's longest
# backoff (10 s) plus re-reading, one flush and the commit, with room for a
# loaded 2-core machine. Measured values are printed.
RECOVERY_BOUND_S = 30.0


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@contextlib.contextmanager
def small_filesystem(mount_point: pathlib.Path, size_mib: int):
    """Mounts a size_mib filesystem at mount_point (tmpfs, else an ext4 loop
    device); yields its description; unmounts in any case."""
    mount_point.mkdir(parents=True, exist_ok=True)
    tried = []
    image = mount_point.parent / f"{mount_point.name}.img"
    mounted = _run("mount", "-t", "tmpfs", "-o", f"size={size_mib}m,mode=0700", "tmpfs",
                   str(mount_point))
    kind = f"tmpfs of {size_mib} MiB"
    if mounted.returncode != 0:
        tried.append(f"mount -t tmpfs: {mounted.stderr.strip() or mounted.returncode}")
        with open(image, "wb") as f:
            f.truncate(size_mib << 20)
        made = _run("mkfs.ext4", "-q", "-F", str(image))
        mounted = _run("mount", "-o", "loop", str(image), str(mount_point)) \
            if made.returncode == 0 else made
        kind = f"ext4 loop device of {size_mib} MiB"
        if mounted.returncode != 0:
            tried.append(f"loop device: {mounted.stderr.strip() or mounted.returncode}")
            image.unlink(missing_ok=True)
            pytest.fail("cannot mount a small filesystem for the full-disk test (needs root or "
                        "CAP_SYS_ADMIN): " + "; ".join(tried))
    try:
        yield kind
    finally:
        if _run("umount", str(mount_point)).returncode != 0:
            _run("umount", "-l", str(mount_point))
        image.unlink(missing_ok=True)


def fill(path: pathlib.Path) -> int:
    """Writes zeros to `path` until the filesystem is full; returns the bytes written."""
    written = 0
    chunk = b"\0" * (1 << 20)
    size = len(chunk)
    with open(path, "wb", buffering=0) as f:
        while size >= 512:
            try:
                written += f.write(chunk[:size])
            except OSError as e:
                if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                    raise
                size //= 2
    return written


class Watch:
    """Samples DescribeChannel and /metrics of one channel."""

    def __init__(self, channel: ChannelSetup):
        self.channel = channel

    def sample(self) -> dict:
        described = self.channel.describe()
        text = self.channel.metrics_text()
        arn = self.channel.channel_arn

        def metric(name):
            return channel_metric(text, "streamtables_delivery_" + name, arn)

        return {"t": time.monotonic(), "status": described["Status"],
                "state_info": described.get("StateInfo"), "stalled": metric("stalled"),
                "commits": metric("commits_total") or 0,
                "delivered": (metric("rows_successful_total") or 0)
                + (metric("rows_failed_total") or 0),
                "errors": metric("errors_total") or 0, "metrics": text}

    def stalls_during(self, seconds: float) -> list[dict]:
        """Samples every 0.5 s for `seconds`; returns those that report a stall
        (a stateInfo or the stalled gauge)."""
        start = time.monotonic()
        stalled = []
        while time.monotonic() - start < seconds:
            sample = self.sample()
            if sample["state_info"] or sample["stalled"]:
                stalled.append(sample)
            time.sleep(0.5)
        return stalled

    def until(self, done, timeout_s: float, what: str) -> dict:
        deadline = time.monotonic() + timeout_s
        last = None
        while time.monotonic() < deadline:
            last = self.sample()
            if done(last):
                return last
            time.sleep(0.25)
        raise AssertionError(f"channel {self.channel.channel_name}: {what} not within "
                             f"{timeout_s:.0f}s; last: { {k: v for k, v in last.items() if k != 'metrics'} }"
                             f"\n{self.channel.server.log_tail(40)}")


def recover_and_verify(channel: ChannelSetup, load: SteadyProducer, kafka, fault_ended: float,
                       committed_before: float, produced_at_end: int, label: str) -> dict:
    """After a fault: waits for the first commit, the cleared stall and the catch-up,
    then stops the load and checks exactly once. Returns the measured seconds."""
    watch = Watch(channel)
    first = watch.until(lambda s: s["commits"] > committed_before, RECOVERY_BOUND_S,
                        "first commit after the fault")
    cleared = watch.until(lambda s: not s["state_info"] and s["stalled"] == 0, RECOVERY_BOUND_S,
                          "stall report cleared")
    caught_up = watch.until(lambda s: s["delivered"] >= produced_at_end, 120,
                            "caught up with what was produced during the fault")
    assert caught_up["status"] == "ACTIVE"
    load.stop()
    data = channel.wait_rows(load.good, timeout_s=180)
    dead = [(d["partition"], d["offset"]) for d in channel.dlq_lines()]
    summary = verify_exactly_once(data, kafka.end_offsets(channel.topic), dead)
    measured = {"first_commit_s": round(first["t"] - fault_ended, 1),
                "stall_cleared_s": round(cleared["t"] - fault_ended, 1),
                "caught_up_s": round(caught_up["t"] - fault_ended, 1)}
    print(f"\n{label}: recovery after the fault ended: {measured}; {summary}")
    return measured


def start_load(channel: ChannelSetup, kafka, topic: str) -> tuple[SteadyProducer, Watch]:
    channel.wait_status("ACTIVE")
    load = SteadyProducer(kafka, topic, rate=RATE, partitions=PARTITIONS,
                          bad_every=BAD_EVERY).start()
    watch = Watch(channel)
    watch.until(lambda s: s["commits"] >= 2, 60, "first deliveries")
    return load, watch


@pytest.mark.local_store  # fills the data dir's file system (test_scaleout_faults stops s3proxy)
def test_full_data_dir_reports_the_stall_and_recovers_exactly_once(kafka, topic_name, build_dir,
                                                                   tmp_path):
    work = tmp_path / "server"
    work.mkdir()
    server = StreamtablesServer(work, build_dir, name="server-fullfs")
    with small_filesystem(server.data_dir, 64) as kind:
        load = None
        try:
            server.start()
            kafka.create_topic(topic_name, partitions=PARTITIONS)
            channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA,
                                          freshness=FRESHNESS_S)
            load, watch = start_load(channel, kafka, topic_name)

            ballast = server.data_dir / "ballast"
            filled = fill(ballast)
            full_at = time.monotonic()
            stalled = watch.stalls_during(FULL_FOR_S)
            committed_before = watch.sample()["commits"]
            ballast.unlink()
            ended = time.monotonic()
            produced_at_end = load.produced

            assert stalled, f"no stall reported while the {kind} was full for {FULL_FOR_S}s"
            info = next((s["state_info"] for s in stalled if s["state_info"]), None)
            assert info is not None, "DescribeChannel never showed a stateInfo while full"
            assert info["Code"] == "DELIVERY_STALLED", info
            assert "No space left on device" in info["Message"], info
            assert f"data freshness of {FRESHNESS_S} s" in info["Message"], info
            assert all(s["status"] == "ACTIVE" for s in stalled)
            assert any(s["stalled"] == 1 for s in stalled), "/metrics never said stalled"
            last_error = [line for line in stalled[-1]["metrics"].splitlines()
                          if line.startswith("streamtables_delivery_last_error_info{")
                          and channel.channel_arn in line]
            assert last_error and "No space left on device" in last_error[0], last_error
            first_report = round(stalled[0]["t"] - full_at, 1)
            print(f"\nfilled the {kind} with {filled >> 20} MiB of ballast; stall reported "
                  f"{first_report}s after it was full (freshness {FRESHNESS_S}s)")

            measured = recover_and_verify(channel, load, kafka, ended, committed_before,
                                          produced_at_end, f"full {kind} for {FULL_FOR_S}s")
            load = None
            assert measured["first_commit_s"] <= RECOVERY_BOUND_S
        finally:
            if load is not None:
                load._stop.set()
            server.stop()


def test_broker_restart_mid_delivery_recovers_exactly_once(fresh_server, kafka_factory,
                                                           topic_name):
    broker = kafka_factory()
    server = fresh_server()
    broker.create_topic(topic_name, partitions=PARTITIONS)
    channel = ChannelSetup.create(server, broker, topic_name, schema=SCHEMA,
                                  freshness=FRESHNESS_S)
    load, watch = start_load(channel, broker, topic_name)
    time.sleep(3)
    committed_before = watch.sample()["commits"]
    down = time.monotonic()
    broker.restart()
    back = time.monotonic()
    print(f"\nbroker down and back in {back - down:.1f}s")
    committed_before = max(committed_before, watch.sample()["commits"])
    recover_and_verify(channel, load, broker, back, committed_before, load.produced,
                       "broker restart")


def test_server_sigstop_30s_recovers_exactly_once(fresh_server, kafka, topic_name):
    server = fresh_server()
    kafka.create_topic(topic_name, partitions=PARTITIONS)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA,
                                  freshness=FRESHNESS_S)
    load, watch = start_load(channel, kafka, topic_name)
    time.sleep(3)
    committed_before = watch.sample()["commits"]
    server.proc.pause()
    try:
        time.sleep(30)
    finally:
        server.proc.resume()
    resumed = time.monotonic()
    recover_and_verify(channel, load, kafka, resumed, committed_before, load.produced,
                       "30 s SIGSTOP of the server")


def test_channels_coming_and_going_resize_a_busy_channels_prefetch_exactly_once(
        fresh_server, kafka, topic_name):
    """Issue 15: a channel's librdkafka prefetch is a quarter of its fair share of
    --delivery-memory-mb. With a 64 MB budget a lone channel prefetches 16 MiB;
    once three more channels run, its share wants 4 MiB and the worker remakes
    its consumer mid-batch (the batch continues: no record is read twice), and
    again when they are deleted. Every offset lands exactly once."""
    server = fresh_server(extra_args=["--delivery-memory-mb", "64"])
    kafka.create_topic(topic_name, partitions=PARTITIONS)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA,
                                  freshness=FRESHNESS_S)
    load, watch = start_load(channel, kafka, topic_name)

    def resizes(sample) -> float:
        return channel_metric(sample["metrics"], "streamtables_delivery_consumer_resizes_total",
                              channel.channel_arn) or 0

    assert resizes(watch.sample()) == 0
    others = []
    for i in range(3):
        other_topic = f"{topic_name}-other{i}"
        kafka.create_topic(other_topic, partitions=1)
        others.append(ChannelSetup.create(server, kafka, other_topic, schema=SCHEMA,
                                          freshness=FRESHNESS_S,
                                          cluster_arn=channel.cluster_arn))
    for other in others:
        other.wait_status("ACTIVE")
    watch.until(lambda s: resizes(s) >= 1, 30, "consumer remade for the smaller share")
    time.sleep(3)  # Deliveries go on with the new consumer.
    client = harness.channels.kafka_client(server)
    for other in others:
        client.delete_channel(ClusterArn=other.cluster_arn, ChannelArn=other.channel_arn)
    watch.until(lambda s: resizes(s) >= 2, 60, "consumer remade for the larger share again")
    time.sleep(3)

    load.stop()
    data = channel.wait_rows(load.good, timeout_s=120)
    summary = verify_exactly_once(data, kafka.end_offsets(topic_name),
                                  [(d["partition"], d["offset"]) for d in channel.dlq_lines()])
    final = watch.sample()
    read = channel_metric(final["metrics"], "streamtables_delivery_rows_total",
                          channel.channel_arn)
    # Remade mid-batch, the batch was continued, not dropped and read again.
    assert read == load.produced, (read, load.produced)
    assert resizes(final) == 2, final["metrics"]
    print(f"\nprefetch resized twice while {load.produced} records were delivered; {summary}")
