"""Freshness (issue 4 "Must show"): with dataFreshnessInSeconds 60 every
record is visible to PyIceberg within 61 s of being produced. The 1 s case's
p50/p99 over 1,000 probes is a benchmark (bench/freshness_bench.py), not a
timed test."""

from harness import freshness
from harness.channels import ChannelSetup

SCHEMA = {"type": "object",
          "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"},
                         "probe": {"type": "boolean"}},
          "required": ["id", "ts"]}


def test_freshness_60s_makes_everything_visible_within_61s(server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=2)
    setup = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=60)
    setup.wait_status("ACTIVE")
    result = freshness.measure(setup, kafka, probes=40, interval_s=0.25, timeout_s=75)
    assert result["max"] <= 61.0, result
    assert setup.read_arrow().num_rows == 40
