"""Apache Iceberg's REST Compatibility Kit (RCK) against our Iceberg REST catalog.

The RCK (`org.apache.iceberg:iceberg-open-api:1.11.0`, `tests` classifier) is
Iceberg's own CatalogTests and ViewCatalogTests driven through a RESTCatalog.
Here it runs outside Gradle, with JUnit's console launcher, against a fresh
server and table bucket: SigV4 for `s3tables` on `<api>/iceberg`, S3FileIO on
our S3 port. Outside Gradle the catalog properties are plain system properties
(`-Duri=`, `-Dwarehouse=`); the RCK's own switches keep their `rck.` prefix.

The test asserts the EXACT set of failing RCK tests: each one left is an S3
Tables rule the kit does not know (README.md, "Iceberg REST Compatibility
Kit"). A new failure, or a test that starts passing, fails this test with a
diff. The jars come from tools/maven/iceberg-rck/pom.xml (tools/install.sh).
"""

import os
import subprocess
import time
import xml.etree.ElementTree as ET

from harness import paths

SUITE = "org.apache.iceberg.rest.RESTCompatibilityKitSuite"
TOTAL_TESTS = 157
# Tests the kit itself skips (assumptions: nested namespaces, names with a dot
# or slash, the empty namespace, a per-test local server).
EXPECTED_SKIPPED = 12
TIMEOUT_S = 600  # It takes 85-170 s; a hang must not hold CI for long.

# The S3 Tables rules the RCK does not know (README.md lists the same table).
VIEWS = ("S3 Tables has no views: the catalog offers no view endpoints, so the Java "
         "client refuses every view call")
FORMAT = ("table buckets hold Iceberg format version 2 tables only (format-version 1 and 3 "
          "are refused with 406)")
NAMES = ("S3 Tables names are lowercase letters, digits and underscores: 'renamedTable' "
         "and 'non-existing' are refused with 400 before anything is looked up")
LOCATION = ("S3 Tables fixes every table's location (its warehouse location): a requested "
            "location (here file:/tmp/...) is refused with 400, or the client writes its "
            "manifests to that local path before committing")
NS_PROPERTIES = ("S3 Tables namespaces carry no properties: the catalog does not offer "
                 "the namespace-properties endpoint, and properties sent on create are dropped")
REGISTER = "S3 Tables has no registerTable: the catalog does not offer the register endpoint"
FILES = ("the kit moves the table's metadata file with java.nio on the local disk; a table "
         "bucket's files are S3 objects")

# test id ("<Class>.<method>(<args>)[<invocation>]") -> the S3 Tables rule it conflicts with.
EXPECTED_FAILURES: dict[str, str] = {
    "RESTCompatibilityKitCatalogTests.createTableTransaction(int)[1]": FORMAT,
    "RESTCompatibilityKitCatalogTests.createTableTransaction(int)[3]": FORMAT,
    "RESTCompatibilityKitCatalogTests.renameTableNamespaceMissing()": NAMES,
    "RESTCompatibilityKitCatalogTests.replaceTableTransaction(int)[1]": FORMAT,
    "RESTCompatibilityKitCatalogTests.tableCreationWithoutNamespace()": NAMES,
    "RESTCompatibilityKitCatalogTests.testCompleteCreateOrReplaceTransactionCreate()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCompleteCreateOrReplaceTransactionReplace()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCompleteCreateTable()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCompleteCreateTransaction()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCompleteCreateTransactionMultipleSchemas()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCompleteCreateTransactionV2()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCompleteReplaceTransaction()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testCreateNamespaceWithProperties()": NS_PROPERTIES,
    "RESTCompatibilityKitCatalogTests.testCreateTableWithDefaultColumnValue()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testLoadTable()": LOCATION,
    "RESTCompatibilityKitCatalogTests.testLoadTableWithMissingMetadataFile(Path)": FILES,
    "RESTCompatibilityKitCatalogTests.testRegisterExistingTable()": REGISTER,
    "RESTCompatibilityKitCatalogTests.testRegisterTable()": REGISTER,
    "RESTCompatibilityKitCatalogTests.testRemoveNamespaceProperties()": NS_PROPERTIES,
    "RESTCompatibilityKitCatalogTests.testRemoveNamespacePropertiesNamespaceDoesNotExist()": NS_PROPERTIES,
    "RESTCompatibilityKitCatalogTests.testSetNamespaceProperties()": NS_PROPERTIES,
    "RESTCompatibilityKitCatalogTests.testSetNamespacePropertiesNamespaceDoesNotExist()": NS_PROPERTIES,
    "RESTCompatibilityKitCatalogTests.testUpdateAndSetNamespaceProperties()": NS_PROPERTIES,
    "RESTCompatibilityKitCatalogTests.testUpdateNamespaceProperties()": NS_PROPERTIES,
    "RESTCompatibilityKitViewCatalogTests.basicCreateView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.completeCreateView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.concurrentReplaceViewVersion()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createAndReplaceViewWithLocation()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createOrReplaceTableViaTransactionThatAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createOrReplaceView(boolean)[1]": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createOrReplaceView(boolean)[2]": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createOrReplaceViewThatAlreadyExistsAsTable()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createTableThatAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createTableViaTransactionThatAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createViewConflict()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createViewErrorCases()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createViewThatAlreadyExists()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createViewThatAlreadyExistsAsTable()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.createViewWithCustomMetadataLocation()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.defaultViewProperties()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.dropNonEmptyNamespace()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.listViews()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.listViewsAndTables()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.loadTableThatAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.loadViewThatAlreadyExistsAsTable()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.loadViewWithNonExistingNamespace()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.overrideViewProperties()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.registerExistingView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.registerTableThatAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.registerView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.registerViewThatAlreadyExistsAsTable()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameTableTargetAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameViewNamespaceMissing()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameViewSourceMissing()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameViewTargetAlreadyExistsAsTable()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameViewTargetAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.renameViewUsingDifferentNamespace()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceTableViaTransactionThatAlreadyExistsAsView()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceViewConflict()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceViewErrorCases()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceViewVersion()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceViewVersionByUpdatingSQLForDialect()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceViewVersionConflict()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.replaceViewVersionErrorCases()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.testSqlForCaseInsensitive()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.testSqlForInvalidArguments()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.testSqlForMultipleDialects()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.updateViewLocation()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.updateViewLocationConflict()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.updateViewProperties()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.updateViewPropertiesConflict()": VIEWS,
    "RESTCompatibilityKitViewCatalogTests.updateViewPropertiesErrorCases()": VIEWS,
}


def _test_id(case: ET.Element) -> str:
    cls = case.get("classname", "").rsplit(".", 1)[-1]
    return f"{cls}.{case.get('name', '')}"


def _read_reports(reports_dir) -> dict[str, tuple[str, str]]:
    """test id -> (outcome, first line of the failure), outcome passed/failed/skipped."""
    results: dict[str, tuple[str, str]] = {}
    files = sorted(reports_dir.glob("*.xml"))
    assert files, f"the console launcher wrote no XML report into {reports_dir}"
    for path in files:
        for case in ET.parse(path).getroot().iter("testcase"):
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            if problem is not None:
                message = (problem.get("message") or problem.text or "").strip().splitlines()
                results[_test_id(case)] = ("failed", message[0][:300] if message else "")
            elif case.find("skipped") is not None:
                results[_test_id(case)] = ("skipped", "")
            else:
                results[_test_id(case)] = ("passed", "")
    return results


def _rck_command(server, warehouse: str, reports_dir) -> list[str]:
    creds = server.admin_credentials
    jars = paths.jar_dir("iceberg-rck")
    props = {
        # The catalog under test (plain catalog properties outside Gradle).
        "uri": server.iceberg_url,
        "warehouse": warehouse,
        "rest.auth.type": "sigv4",
        "rest.signing-name": "s3tables",
        "rest.signing-region": server.region,
        "rest.access-key-id": creds.access_key,
        "rest.secret-access-key": creds.secret_key,
        "io-impl": "org.apache.iceberg.aws.s3.S3FileIO",
        "s3.endpoint": server.s3_url,
        "s3.path-style-access": "true",
        "s3.access-key-id": creds.access_key,
        "s3.secret-access-key": creds.secret_key,
        "client.region": server.region,
        # The RCK's switches: a remote catalog, not its embedded one; namespaces
        # exist only once created; the service picks every table location.
        "rck.local": "false",
        "rck.requires-namespace-create": "true",
        "rck.overrides-requested-location": "true",
        # AWS SDK: no instance-metadata probing, no shared config files.
        "aws.region": server.region,
        "aws.ec2MetadataServiceEndpoint": "http://127.0.0.1:9",
        "org.slf4j.simpleLogger.defaultLogLevel": "warn",
    }
    return [paths.java_bin(), "-Xmx768m", "-XX:+UseSerialGC",
            *[f"-D{k}={v}" for k, v in props.items()],
            "-cp", f"{jars}/*", "org.junit.platform.console.ConsoleLauncher", "execute",
            "--select-class", SUITE, "--include-engine", "junit-platform-suite",
            "--reports-dir", str(reports_dir), "--details", "none", "--disable-banner",
            "--disable-ansi-colors"]


def test_rest_compatibility_kit(fresh_server, tmp_path):
    server = fresh_server()
    warehouse = server.boto3_client("s3tables").create_table_bucket(name="rck-warehouse")["arn"]
    reports_dir = tmp_path / "rck-reports"
    log_path = tmp_path / "rck.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "CATALOG_"))}
    started = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.run(_rck_command(server, warehouse, reports_dir), stdout=log,
                              stderr=subprocess.STDOUT, env=env, timeout=TIMEOUT_S,
                              cwd=tmp_path)
    elapsed = time.monotonic() - started
    results = _read_reports(reports_dir)
    failed = {name: why for name, (outcome, why) in results.items() if outcome == "failed"}
    passed = sorted(name for name, (outcome, _) in results.items() if outcome == "passed")
    skipped = sorted(name for name, (outcome, _) in results.items() if outcome == "skipped")
    print(f"RCK: {len(passed)} of {len(results)} passed, {len(failed)} failed, "
          f"{len(skipped)} skipped in {elapsed:.0f}s (log {log_path})")

    assert len(results) == TOTAL_TESTS, (
        f"the RCK ran {len(results)} tests, expected {TOTAL_TESTS}; see {log_path}")
    new_failures = sorted(set(failed) - set(EXPECTED_FAILURES))
    now_passing = sorted(set(EXPECTED_FAILURES) - set(failed))
    report = []
    if new_failures:
        report.append("RCK tests that fail but are not expected to (fix the server, or add "
                      "them with the S3 Tables rule to EXPECTED_FAILURES and the README):")
        report += [f"  {name}: {failed[name]}" for name in new_failures]
    if now_passing:
        report.append("RCK tests expected to fail that no longer fail (remove them from "
                      "EXPECTED_FAILURES and the README):")
        report += [f"  {name} ({results.get(name, ('missing', ''))[0]})" for name in now_passing]
    assert not report, "\n".join(report) + f"\n(console launcher log: {log_path})"
    assert len(skipped) == EXPECTED_SKIPPED, (
        f"the RCK skipped {len(skipped)} tests, expected {EXPECTED_SKIPPED}: {skipped}")
    assert proc.returncode in (0, 1), f"console launcher exited {proc.returncode}; see {log_path}"
