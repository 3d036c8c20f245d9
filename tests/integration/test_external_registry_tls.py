"""External Confluent-compatible registries over https (issue 14 item 2).

A second streamtables server's built-in registry sits behind a TLS
terminator whose throwaway certificate names `localhost` only.
confluent-kafka's SchemaRegistryClient registers through https (trusting
that certificate with `ssl.ca.location`); the channel server, started with
--external-registry-ca-file naming it, resolves the ids over https and the
rows are read back with PyIceberg. A certificate the server does not trust
(a server without the CA file, on the system's trust store) or one for
another name (the URL names 127.0.0.1, which the certificate does not)
stalls the channel with the TLS
reason in DescribeChannel and drops nothing; the terminator saw those
handshakes refused."""

import json

import pytest

from harness.channels import ChannelSetup
from harness.server import StreamtablesServer
from harness.tls_terminator import TlsTerminator
from test_avro_channel import produce, rows_of, wait_for
from test_external_registry import ORDER, describe_raw, order


@pytest.fixture(scope="module")
def registry_server(tmp_path_factory, build_dir):
    srv = StreamtablesServer(tmp_path_factory.mktemp("tls-registry"), build_dir,
                             name="tls-registry").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def terminator(tmp_path_factory, registry_server):
    tls = TlsTerminator(registry_server.api_url.removeprefix("http://"),
                        tmp_path_factory.mktemp("tls-cert"))
    yield tls
    tls.close()


def _channel_server(tmp_path_factory, build_dir, terminator, name, trust):
    hosts = f"localhost:{terminator.port},127.0.0.1:{terminator.port}"
    args = ["--external-registry-hosts", hosts]
    if trust:
        args += ["--external-registry-ca-file", terminator.ca_cert_file]
    return StreamtablesServer(tmp_path_factory.mktemp(name), build_dir, name=name,
                              extra_args=args).start()


@pytest.fixture(scope="module")
def channel_server(tmp_path_factory, build_dir, terminator):
    srv = _channel_server(tmp_path_factory, build_dir, terminator, "tls-trusting", trust=True)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def untrusting_server(tmp_path_factory, build_dir, terminator):
    srv = _channel_server(tmp_path_factory, build_dir, terminator, "tls-untrusting", trust=False)
    yield srv
    srv.stop()


def https_url(terminator, host="localhost"):
    return f"https://{host}:{terminator.port}/schema-registry"


def external(url, server):
    return {"externalSchemaRegistry": {"url": url, "basicAuth": {"key": server.access_key,
                                                                 "secret": server.secret_key}}}


def serializer_through_tls(terminator, registry_server):
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    client = SchemaRegistryClient({
        "url": https_url(terminator),
        "basic.auth.user.info": f"{registry_server.access_key}:{registry_server.secret_key}",
        "ssl.ca.location": terminator.ca_cert_file})
    return AvroSerializer(client, json.dumps(ORDER))


def value_context(topic):
    from confluent_kafka.serialization import MessageField, SerializationContext
    return SerializationContext(topic, MessageField.VALUE)


def test_avro_through_an_https_registry(channel_server, registry_server, terminator, kafka,
                                        topic_name):
    kafka.create_topic(topic_name, partitions=2)
    setup = ChannelSetup.create(channel_server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                record_schema=external(https_url(terminator), registry_server))
    setup.wait_status("ACTIVE")
    shown = describe_raw(channel_server, setup).json()["topicConfigurationList"][0]
    assert shown["recordSchema"]["externalSchemaRegistry"]["url"] == https_url(terminator)

    serializer = serializer_through_tls(terminator, registry_server)
    ctx = value_context(topic_name)
    produced = produce(kafka, topic_name, [serializer(order(i), ctx) for i in range(8)])
    wait_for(lambda: len(rows_of(setup)) >= 8, what="rows through the https registry")
    got = sorted(rows_of(setup), key=lambda r: r["id"])
    assert [(r["id"], r["ts"], r["name"], r["price"]) for r in got] == [
        (i, order(i)["ts"], order(i)["name"], order(i)["price"]) for i in range(8)]
    assert sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got) == \
        sorted(produced)
    assert setup.dlq_lines() == []
    # The serializer's connection and the channel server's both went through TLS.
    assert terminator.served >= 2


def test_an_untrusted_or_misnamed_certificate_stalls_the_channel(
        channel_server, untrusting_server, registry_server, terminator, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    # The certificate names localhost; this URL names the address.
    misnamed = ChannelSetup.create(
        channel_server, kafka, topic_name, converter="AVRO_CONFLUENT",
        record_schema=external(https_url(terminator, "127.0.0.1"), registry_server))
    # This server trusts only the system's CAs, which never signed it.
    untrusted = ChannelSetup.create(
        untrusting_server, kafka, topic_name, converter="AVRO_CONFLUENT",
        record_schema=external(https_url(terminator), registry_server))
    misnamed.wait_status("ACTIVE")
    untrusted.wait_status("ACTIVE")
    refused_before = terminator.refused_handshakes
    serializer = serializer_through_tls(terminator, registry_server)
    ctx = value_context(topic_name)
    produce(kafka, topic_name, [serializer(order(i), ctx) for i in range(4)])

    def reason(server, setup, needle):
        info = describe_raw(server, setup).json().get("stateInfo", {})
        return needle in info.get("message", "") and info
    info = wait_for(lambda: reason(channel_server, misnamed, "IP address mismatch"),
                    timeout_s=60, what="the name mismatch in DescribeChannel")
    assert info["code"] == "DELIVERY_STALLED"
    assert "TLS handshake with 127.0.0.1" in info["message"], info
    info = wait_for(lambda: reason(untrusting_server, untrusted, "certificate verify failed"),
                    timeout_s=60, what="the untrusted certificate in DescribeChannel")
    assert info["code"] == "DELIVERY_STALLED"
    assert "TLS handshake with localhost" in info["message"], info
    assert registry_server.secret_key not in info["message"]
    assert terminator.refused_handshakes >= refused_before + 2
    for setup in (misnamed, untrusted):
        assert rows_of(setup) == [] and setup.dlq_lines() == []


def test_an_unreadable_ca_file_stops_the_server_at_start(st_bin, tmp_path):
    """A wrong --external-registry-ca-file fails at start, naming the flag and
    the path, instead of failing every https lookup later."""
    missing = tmp_path / "no-such-ca.pem"
    result = st_bin.run("streamtables-server", "--data-dir", str(tmp_path / "d"),
                        "--listen", "127.0.0.1:0", "--s3-listen", "127.0.0.1:0",
                        "--metrics-listen", "off",
                        "--external-registry-ca-file", str(missing), check=False, timeout_s=30)
    assert result.returncode != 0
    assert "--external-registry-ca-file" in result.stderr and str(missing) in result.stderr
    assert "No such file or directory" in result.stderr
    result = st_bin.run("streamtables-server", "--data-dir", str(tmp_path / "d"),
                        "--external-registry-ca-file", "", check=False, timeout_s=30)
    assert result.returncode == 2 and "needs a path" in result.stderr
