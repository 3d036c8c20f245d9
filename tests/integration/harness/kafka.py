"""A single-node Apache Kafka 4.x broker (KRaft, combined broker+controller).

Runs from the jars tools/install.sh put in .cache/jars/kafka/ with
`java -cp '<jars>/*' kafka.Kafka server.properties`, after formatting its
storage with kafka.tools.StorageTool. Listens on 127.0.0.1 only, on free ports.
"""

import base64
import pathlib
import time
import uuid
from typing import Iterable, Mapping, Optional, Sequence

from . import paths
from .ports import free_ports, wait_port_closed
from .process import ManagedProcess, ProcessError

_LOG4J2 = """\
rootLogger.level=INFO
rootLogger.appenderRef.stdout.ref=STDOUT
appender.stdout.type=Console
appender.stdout.name=STDOUT
appender.stdout.layout.type=PatternLayout
appender.stdout.layout.pattern=[%d] %p %m (%c)%n
logger.statechange.name=state.change.logger
logger.statechange.level=WARN
logger.request.name=kafka.request.logger
logger.request.level=WARN
# Each config object dumps all its values at INFO: hundreds of lines that
# would push the useful part out of the failure tail.
logger.config.name=org.apache.kafka.common.config.AbstractConfig
logger.config.level=WARN
"""

# Small internal topics make the first consumer group and the first
# transaction fast on a 2-core machine; a single node needs replication 1.
_DEFAULT_PROPS = {
    "process.roles": "broker,controller",
    "node.id": "1",
    "controller.listener.names": "CONTROLLER",
    "inter.broker.listener.name": "PLAINTEXT",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    "num.partitions": "1",
    "default.replication.factor": "1",
    "offsets.topic.replication.factor": "1",
    "offsets.topic.num.partitions": "4",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "transaction.state.log.num.partitions": "4",
    "share.coordinator.state.topic.replication.factor": "1",
    "share.coordinator.state.topic.min.isr": "1",
    "share.coordinator.state.topic.num.partitions": "1",
    "group.initial.rebalance.delay.ms": "0",
    # After a kill, the restarted broker cannot register until the controller
    # expires the old session (default 9 s); keep that short but well above
    # the heartbeat so a busy 2-core machine does not fence a live broker.
    "broker.heartbeat.interval.ms": "1000",
    "broker.session.timeout.ms": "5000",
    "auto.create.topics.enable": "true",
}


def _cluster_id() -> str:
    # Like Kafka's Uuid.randomUuid(): 22 url-safe base64 chars, never starting
    # with '-' (the storage tool's argument parser would take it for a flag).
    while True:
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not cluster_id.startswith("-"):
            return cluster_id


class KafkaBroker:
    """One broker process and its data directory.

    `extra_props` override server.properties entries (e.g.
    {"auto.create.topics.enable": "false"}). Ports and data survive restart(),
    so a test can crash the broker with kill() and bring it back.
    """

    def __init__(self, work_dir: pathlib.Path, extra_props: Optional[Mapping[str, str]] = None,
                 heap: str = "512m", name: str = "kafka"):
        self.work_dir = pathlib.Path(work_dir)
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.port, self.controller_port = free_ports(2)
        self.data_dir = self.work_dir / "data"
        self.log_path = self.work_dir / "broker.log"
        self.heap = heap
        props = dict(_DEFAULT_PROPS)
        props.update({
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{self.controller_port}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "controller.quorum.voters": f"1@127.0.0.1:{self.controller_port}",
            "log.dirs": str(self.data_dir),
        })
        props.update({k: str(v) for k, v in (extra_props or {}).items()})
        self.props = props
        self.config_path = self.work_dir / "server.properties"
        self.config_path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        (self.work_dir / "log4j2.properties").write_text(_LOG4J2)
        self._formatted = False
        self._admin = None
        self.process = ManagedProcess(name, self._java_argv("kafka.Kafka", str(self.config_path)),
                                      self.log_path, cwd=self.work_dir)

    @property
    def bootstrap(self) -> str:
        """bootstrap.servers for clients: '127.0.0.1:<port>'."""
        return f"127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process.running

    def _java_argv(self, main_class: str, *args: str) -> list[str]:
        jars = paths.jar_dir("kafka")
        return [
            paths.java_bin(), f"-Xmx{self.heap}", "-Xms128m", "-Djava.awt.headless=true",
            f"-Dlog4j2.configurationFile={self.work_dir / 'log4j2.properties'}",
            f"-Dkafka.logs.dir={self.work_dir}",
            "-cp", f"{jars}/*", main_class, *args,
        ]

    def _format(self) -> None:
        fmt = ManagedProcess("kafka-storage-format",
                             self._java_argv("kafka.tools.StorageTool", "format", "--ignore-formatted",
                                             "-t", _cluster_id(), "-c", str(self.config_path)),
                             self.work_dir / "format.log", cwd=self.work_dir)
        fmt.start()
        code = fmt.proc.wait(timeout=120)
        fmt.stopped_at = time.time()
        if code != 0:
            raise ProcessError(f"kafka storage format failed with code {code}; "
                               f"log {fmt.log_path}:\n{fmt.tail()}")
        self._formatted = True

    def start(self, timeout_s: float = 120.0) -> "KafkaBroker":
        """Formats storage on first start, starts the broker, waits until it serves metadata."""
        if not self._formatted:
            self._format()
        self.process.start()
        self.process.wait_until(self._serves_metadata, timeout_s, "serving metadata")
        return self

    def _serves_metadata(self) -> bool:
        from confluent_kafka.admin import AdminClient
        # A throwaway, silent client: while the broker boots every connect
        # attempt fails, and librdkafka would log each one.
        probe = AdminClient(self.client_config(log_level=0))
        return len(probe.list_topics(timeout=2).brokers) >= 1

    def stop(self) -> None:
        """Graceful stop (SIGTERM, SIGKILL after 20 s)."""
        self._admin = None
        self.process.stop(timeout_s=20)

    def kill(self) -> None:
        """Crash the broker (SIGKILL)."""
        self._admin = None
        self.process.kill()

    def restart(self, timeout_s: float = 120.0) -> "KafkaBroker":
        """Stop if running, then start on the same ports and data."""
        self.stop()
        wait_port_closed(self.port)
        return self.start(timeout_s)

    def tail(self, lines: int = 60) -> str:
        return self.process.tail(lines)

    # ------------------------------------------------------------ clients
    def client_config(self, **overrides) -> dict:
        conf = {"bootstrap.servers": self.bootstrap}
        conf.update({k.replace("_", "."): v for k, v in overrides.items()})
        conf["log_level"] = conf.pop("log.level", 6)
        return conf

    def admin(self):
        """An AdminClient, shared by the helpers and dropped when the broker stops."""
        if self._admin is None:
            from confluent_kafka.admin import AdminClient
            self._admin = AdminClient(self.client_config())
        return self._admin

    def producer(self, **conf):
        """A confluent_kafka.Producer; keyword args are config with '_' for '.'."""
        from confluent_kafka import Producer
        return Producer(self.client_config(**conf))

    def consumer(self, group_id: str, **conf):
        """A confluent_kafka.Consumer reading from the earliest offset, no auto commit."""
        from confluent_kafka import Consumer
        base = {"group_id": group_id, "auto_offset_reset": "earliest", "enable_auto_commit": False}
        base.update(conf)
        return Consumer(self.client_config(**base))

    def create_topic(self, name: str, partitions: int = 1, config: Optional[Mapping[str, str]] = None,
                     timeout_s: float = 30.0) -> None:
        """Creates the topic and waits until every partition has a leader."""
        from confluent_kafka.admin import NewTopic
        admin = self.admin()
        futures = admin.create_topics(
            [NewTopic(name, num_partitions=partitions, replication_factor=1, config=dict(config or {}))],
            operation_timeout=timeout_s)
        futures[name].result(timeout=timeout_s)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            topic = admin.list_topics(topic=name, timeout=5).topics.get(name)
            if (topic is not None and topic.error is None and len(topic.partitions) == partitions
                    and all(p.leader >= 0 for p in topic.partitions.values())):
                return
            time.sleep(0.1)
        raise TimeoutError(f"topic {name} has no leader for all {partitions} partitions after {timeout_s}s")

    def delete_topic(self, name: str, timeout_s: float = 30.0) -> None:
        self.admin().delete_topics([name], operation_timeout=timeout_s)[name].result(timeout=timeout_s)

    def produce(self, topic: str, values: Iterable[Optional[bytes]], keys: Optional[Sequence] = None,
                partition: Optional[int] = None, headers: Optional[Sequence] = None,
                timeout_s: float = 60.0, **producer_conf) -> int:
        """Produces every value (with optional parallel keys/headers), flushes, and
        raises RuntimeError on the first delivery error. Returns the count sent."""
        producer = self.producer(**producer_conf)
        errors = []

        def on_delivery(err, _msg):
            if err is not None:
                errors.append(err)

        count = 0
        for i, value in enumerate(values):
            kwargs = {"value": value, "on_delivery": on_delivery}
            if keys is not None:
                kwargs["key"] = keys[i]
            if headers is not None:
                kwargs["headers"] = headers[i]
            if partition is not None:
                kwargs["partition"] = partition
            while True:
                try:
                    producer.produce(topic, **kwargs)
                    break
                except BufferError:
                    producer.poll(0.1)
            producer.poll(0)
            count += 1
        remaining = producer.flush(timeout_s)
        if remaining:
            raise RuntimeError(f"{remaining} messages to {topic} not delivered after {timeout_s}s")
        if errors:
            raise RuntimeError(f"{len(errors)} deliveries to {topic} failed, first: {errors[0]}")
        return count

    def end_offsets(self, topic: str) -> dict[int, int]:
        """The high watermark of every partition of `topic`."""
        from confluent_kafka import TopicPartition
        consumer = self.consumer(group_id=f"st-harness-offsets-{uuid.uuid4().hex}")
        try:
            md = consumer.list_topics(topic=topic, timeout=10).topics[topic]
            result = {}
            for pid in sorted(md.partitions):
                _low, high = consumer.get_watermark_offsets(TopicPartition(topic, pid), timeout=10)
                result[pid] = high
            return result
        finally:
            consumer.close()
