"""The Kafka harness works: a real broker, real clients, exact round trips."""

import time

from confluent_kafka import KafkaError, TopicPartition

MESSAGES = 1000


def consume(consumer, topic, count, timeout_s=60.0):
    """Polls until `count` messages arrived; returns them as (partition, offset, key, value)."""
    got = []
    deadline = time.monotonic() + timeout_s
    while len(got) < count and time.monotonic() < deadline:
        for msg in consumer.consume(num_messages=500, timeout=0.5):
            if msg.error():
                assert msg.error().code() == KafkaError._PARTITION_EOF, msg.error()
                continue
            got.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
    return got


def test_produce_and_consume_1000_messages_with_a_group(kafka, topic_name):
    kafka.create_topic(topic_name, partitions=3)
    keys = [f"k{i}".encode() for i in range(MESSAGES)]
    values = [f"payload-{i:04d}-".encode() + bytes([i % 256]) * (i % 50) for i in range(MESSAGES)]

    assert kafka.produce(topic_name, values, keys=keys) == MESSAGES
    assert sum(kafka.end_offsets(topic_name).values()) == MESSAGES

    consumer = kafka.consumer("smoke-group")
    try:
        consumer.subscribe([topic_name])
        got = consume(consumer, topic_name, MESSAGES)
        # Nothing beyond the 1000 shows up.
        got += consume(consumer, topic_name, 1, timeout_s=2.0)
        consumer.commit(asynchronous=False)
        committed = consumer.committed([TopicPartition(topic_name, p) for p in range(3)], timeout=10)
    finally:
        consumer.close()

    assert len(got) == MESSAGES
    assert sorted((k, v) for _, _, k, v in got) == sorted(zip(keys, values))
    # Within a partition, offsets are dense and in production order.
    for partition in range(3):
        mine = [(off, int(k[1:])) for p, off, k, _ in got if p == partition]
        assert [off for off, _ in mine] == list(range(len(mine)))
        assert [i for _, i in mine] == sorted(i for _, i in mine)
    assert {tp.partition: tp.offset for tp in committed} == kafka.end_offsets(topic_name)


def test_own_broker_survives_a_crash(kafka_factory, topic_name):
    broker = kafka_factory({"auto.create.topics.enable": "false"})
    broker.create_topic(topic_name)
    broker.produce(topic_name, [b"before-crash-%d" % i for i in range(10)], acks="all")

    broker.kill()
    assert not broker.running
    broker.restart()

    consumer = broker.consumer("after-crash")
    try:
        consumer.subscribe([topic_name])
        got = consume(consumer, topic_name, 10)
    finally:
        consumer.close()
    assert [v for _, _, _, v in got] == [b"before-crash-%d" % i for i in range(10)]
