"""Kafka cluster registration takes only an explicit list of librdkafka client
properties, each value checked (issue 9, item 1): properties that run a
command (sasl.kerberos.kinit.cmd), load a library (ssl.engine.location), read
a file (ssl.*.location, keystores) or fetch a URL (OIDC token endpoint) are
refused with a 400 naming the property and create nothing; a cluster row
stored before (written into catalog.db as an older server would have) is
never applied: its channel goes FAILED naming the property, and the kinit
command never runs.
"""

import json
import sqlite3
import subprocess
import time
import uuid

import pytest

from harness.channels import ChannelSetup, register_cluster
from harness.server import AdminError

DANGEROUS = [
    ("sasl.kerberos.kinit.cmd", "touch /tmp/streamtables-kinit-{marker}"),
    ("sasl.kerberos.keytab", "/etc/krb5.keytab"),
    ("sasl.kerberos.principal", "kafkaclient"),
    ("sasl.kerberos.service.name", "kafka$(touch /tmp/streamtables-svc-{marker})"),
    ("sasl.kerberos.min.time.before.relogin", "1"),
    ("ssl.engine.location", "/tmp/evil-{marker}.so"),
    ("ssl.engine.id", "dynamic"),
    ("ssl_engine_callback_data", "0xdeadbeef"),
    ("ssl.providers", "legacy"),
    ("ssl.ca.location", "/etc/shadow"),
    ("ssl.ca.location", "probe"),
    ("ssl.crl.location", "/etc/shadow"),
    ("ssl.keystore.location", "/etc/ssl/private/client.p12"),
    ("ssl.keystore.password", "changeit"),
    ("ssl.certificate.location", "/etc/ssl/certs/client.pem"),
    ("ssl.key.location", "/etc/ssl/private/client.key"),
    ("ssl.ca.certificate.stores", "Root"),
    ("sasl.oauthbearer.token.endpoint.url", "http://127.0.0.1:9/token"),
    ("sasl.oauthbearer.client.id", "c"),
    ("sasl.oauthbearer.client.secret", "s"),
    ("sasl.oauthbearer.scope", "all"),
    ("plugin.library.paths", "/tmp/evil-{marker}"),
    ("bootstrap.servers", "127.0.0.1:1"),
    ("group.id", "other"),
    ("debug", "all"),
    ("ssl.cipher.suites", "ALL"),
]

BAD_VALUES = [
    ("security.protocol", "SASL"),
    ("security.protocol", ""),
    ("sasl.mechanism", "GSSAPI"),
    ("sasl.mechanisms", "PLAIN,GSSAPI"),
    ("sasl.mechanism", "SCRAM-SHA-1"),
    ("sasl.oauthbearer.method", "oidc"),
    ("enable.ssl.certificate.verification", "maybe"),
    ("enable.sasl.oauthbearer.unsecure.jwt", "1"),
    ("ssl.endpoint.identification.algorithm", "dns"),
    ("ssl.ca.pem", "/etc/ssl/certs/ca-certificates.crt"),
    ("ssl.key.pem", "file:///etc/ssl/private/client.key"),
    ("client.id", "a b"),
    ("client.id", "x\ny"),
    ("sasl.username", "ali\u0000ce"),
    ("sasl.username", "ali\rce"),
    ("sasl.password", "p" * 1025),
]


def cluster_names(server):
    return {c["clusterName"] for c in server.admin("GET", "/kafka-clusters")["clusters"]}


def expect_refused(server, kafka, properties, named):
    name = f"bad-{uuid.uuid4().hex[:8]}"
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/kafka-clusters", {"name": name, "bootstrapServers": kafka.bootstrap,
                                                 "clientProperties": properties})
    assert info.value.status == 400, info.value
    assert info.value.error_type == "BadRequestException"
    body = json.loads(info.value.body)
    assert body["__type"] == "BadRequestException"
    assert f"'{named}'" in body["message"], body["message"]
    # Nothing was created.
    assert name not in cluster_names(server)
    with pytest.raises(AdminError) as missing:
        server.admin("GET", f"/kafka-clusters/{name}")
    assert missing.value.status == 404
    return body["message"]


@pytest.mark.parametrize("key,value", DANGEROUS, ids=[f"{k}={v[:12]}" for k, v in DANGEROUS])
def test_dangerous_property_is_refused_naming_it(server, kafka, key, value):
    value = value.format(marker=uuid.uuid4().hex[:8])
    expect_refused(server, kafka, {"security.protocol": "SASL_PLAINTEXT", key: value}, key)


@pytest.mark.parametrize("key,value", BAD_VALUES, ids=[f"{k}={v[:12]!r}" for k, v in BAD_VALUES])
def test_bad_value_is_refused_naming_the_property(server, kafka, key, value):
    message = expect_refused(server, kafka, {key: value}, key)
    if key == "sasl.password":
        assert value not in message  # Secrets are never echoed.


def test_path_properties_point_to_their_pem_counterpart(server, kafka):
    message = expect_refused(server, kafka, {"ssl.ca.location": "/etc/passwd"}, "ssl.ca.location")
    assert "ssl.ca.pem" in message
    message = expect_refused(server, kafka, {"sasl.kerberos.kinit.cmd": "id"},
                             "sasl.kerberos.kinit.cmd")
    assert "GSSAPI" in message


def test_kinit_command_is_refused_and_never_runs(server, kafka, tmp_path, topic_name):
    marker = tmp_path / "kinit-ran"
    expect_refused(server, kafka, {
        "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "GSSAPI",
        "sasl.kerberos.kinit.cmd": f"touch {marker}"}, "sasl.kerberos.kinit.cmd")
    expect_refused(server, kafka, {
        "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
        "sasl.username": "u", "sasl.password": "p",
        "sasl.kerberos.kinit.cmd": f"touch {marker}"}, "sasl.kerberos.kinit.cmd")
    time.sleep(1.0)
    assert not marker.exists()


def test_cli_register_refuses_the_property(server, kafka):
    name = f"cli-{uuid.uuid4().hex[:8]}"
    result = server.cli("cluster", "register", name, "--bootstrap-servers", kafka.bootstrap,
                        "--property", "ssl.engine.location=/tmp/evil.so", check=False)
    assert result.returncode != 0
    assert "ssl.engine.location" in result.stdout + result.stderr
    assert name not in cluster_names(server)


def self_signed_pem(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=kafka-ca"],
                   check=True, capture_output=True)
    return cert.read_text(), key.read_text()


def test_allowed_properties_are_accepted_and_secrets_masked(server, kafka, tmp_path):
    cert, key = self_signed_pem(tmp_path)
    name = f"ok-{uuid.uuid4().hex[:8]}"
    properties = {
        "security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "alice", "sasl.password": "s3cret-Pa55",
        "ssl.ca.pem": cert, "ssl.certificate.pem": cert, "ssl.key.pem": key,
        "ssl.endpoint.identification.algorithm": "https",
        "enable.ssl.certificate.verification": "true", "client.id": "tenant-1"}
    created = server.admin("POST", "/kafka-clusters", {
        "name": name, "bootstrapServers": kafka.bootstrap, "clientProperties": properties})
    got = server.admin("GET", f"/kafka-clusters/{name}")
    for shown in (created, got):
        props = shown["clientProperties"]
        assert props["sasl.password"] == "****" and props["ssl.key.pem"] == "****"
        assert props["security.protocol"] == "SASL_SSL"
        assert props["sasl.mechanism"] == "SCRAM-SHA-512"
        assert props["sasl.username"] == "alice"
        assert props["ssl.ca.pem"] == cert
    assert "s3cret-Pa55" not in json.dumps(server.admin("GET", "/kafka-clusters"))
    server.admin("DELETE", f"/kafka-clusters/{name}")

    # OAUTHBEARER with a static configuration only.
    name = f"oauth-{uuid.uuid4().hex[:8]}"
    server.admin("POST", "/kafka-clusters", {
        "name": name, "bootstrapServers": kafka.bootstrap, "clientProperties": {
            "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "OAUTHBEARER",
            "sasl.oauthbearer.config": "principal=alice",
            "enable.sasl.oauthbearer.unsecure.jwt": "true"}})
    server.admin("DELETE", f"/kafka-clusters/{name}")


def test_cluster_stored_earlier_with_kinit_cmd_is_never_applied(fresh_server, kafka, tmp_path,
                                                                 topic_name):
    """A row an older server accepted: the channel goes FAILED naming the
    property, and the command never runs."""
    server = fresh_server()
    kafka.create_topic(topic_name, partitions=1)
    cluster_arn = register_cluster(server, kafka)
    server.stop()
    marker = tmp_path / "kinit-ran"
    db = sqlite3.connect(server.data_dir / "catalog" / "catalog.db")
    with db:
        db.execute("UPDATE kafka_clusters SET client_properties = ? WHERE arn = ?", (json.dumps({
            "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "GSSAPI",
            "sasl.kerberos.kinit.cmd": f"touch {marker}"}), cluster_arn))
    db.close()
    server.start()

    setup = ChannelSetup.create(server, kafka, topic_name, converter="BYTE_ARRAY",
                                partition_source=None, cluster_arn=cluster_arn)
    failed = setup.wait_status("FAILED", "ACTIVE", timeout_s=60)
    assert failed["Status"] == "FAILED", failed
    assert failed["StateInfo"]["Code"] == "INVALID_CLIENT_PROPERTY"
    assert "'sasl.kerberos.kinit.cmd'" in failed["StateInfo"]["Message"]
    assert cluster_arn in failed["StateInfo"]["Message"]
    time.sleep(2.0)
    assert not marker.exists()
    assert setup.read_arrow() is None
