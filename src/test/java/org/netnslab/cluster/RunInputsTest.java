package org.netnslab.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The fingerprint a coordinator compares with each worker's: equal for the same inputs read from equal
 * files with the same model configuration; its first half moves with the scenario file, the command line
 * or the version, its second with the model configuration. And the cluster's address rules.
 */
public class RunInputsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void theFingerprintSaysWhichSideDiffers() throws Exception {
        Path file = tmp.getRoot().toPath().resolve("tc1.conf");
        Files.copy(Path.of("load-tests/uevent-tc1-userns.conf"), file);
        Config system = ConfigFactory.load();
        RunInputs in = new RunInputs(file.toString(), List.of("machine.cpus=8"), 0.01, 3, 0, "");
        String fp = in.fingerprint("netns-lab 0.1.0", system, List.of());
        assertEquals(
                fp,
                new RunInputs(file.toString(), List.of("machine.cpus=8"), 0.01, 3, 0, "")
                        .fingerprint("netns-lab 0.1.0", ConfigFactory.load(), List.of()));
        String[] parts = fp.split("/");

        String[] version = in.fingerprint("netns-lab 0.2.0", system, List.of()).split("/");
        assertNotEquals(parts[0], version[0]);
        assertEquals(parts[1], version[1]);

        String[] sets = new RunInputs(file.toString(), List.of("machine.cpus=4"), 0.01, 3, 0, "")
                .fingerprint("netns-lab 0.1.0", system, List.of())
                .split("/");
        assertNotEquals(parts[0], sets[0]);

        Files.writeString(file, Files.readString(file) + "\n# another copy of the file\n");
        String[] edited = in.fingerprint("netns-lab 0.1.0", system, List.of()).split("/");
        assertNotEquals("another scenario file", parts[0], edited[0]);
        assertEquals(parts[1], edited[1]);

        Config otherCost = ConfigFactory.parseString("netns-lab.model.costs.uevent.send-inside = 3us")
                .withFallback(system);
        String[] model = new RunInputs(file.toString(), List.of("machine.cpus=8"), 0.01, 3, 0, "")
                .fingerprint("netns-lab 0.1.0", otherCost, List.of())
                .split("/");
        assertEquals(edited[0], model[0]);
        assertNotEquals("another model configuration", parts[1], model[1]);

        // the reason names what differs
        String here = String.join("/", parts);
        assertEquals(
                "the scenario file (or a file it includes, or an environment variable it reads)",
                RunInputs.differs(String.join("/", edited), here));
        assertEquals(
                "the run's options (--set, --scale, --repeat, or an environment variable a --set reads) or netns-lab"
                        + " version",
                RunInputs.differs(String.join("/", sets), here));
        assertEquals(
                "the scenario file (or a file it includes, or an environment variable it reads) and the model's"
                        + " configuration (reference.conf, conf/application.conf, a -D setting in NETNS_LAB_JAVA_OPTS, or"
                        + " an environment variable they read)",
                RunInputs.differs(String.join("/", model), here));
    }

    /**
     * A --set that reads an environment variable is fingerprinted as each node read it (the loaded scenario's
     * overrides, which name the value: SetOverridesTest): a worker whose N differs is refused, not merged in with
     * figures of another load.
     */
    @Test
    public void aSetThatReadsTheEnvironmentIsFingerprintedAsRead() throws Exception {
        Path file = tmp.getRoot().toPath().resolve("tc1.conf");
        Files.copy(Path.of("load-tests/uevent-tc1-userns.conf"), file);
        RunInputs in = new RunInputs(file.toString(), List.of("workload.injectors=${N}"), 0.01, 0, 0, "");
        Config system = ConfigFactory.load();
        String n100 = in.fingerprint("netns-lab 0.1.0", system, List.of("workload.injectors=${N} (read as 100)"));
        String n200 = in.fingerprint("netns-lab 0.1.0", system, List.of("workload.injectors=${N} (read as 200)"));
        assertNotEquals(n100, n200);
        assertEquals(n100, in.fingerprint("netns-lab 0.1.0", system, List.of("workload.injectors=${N} (read as 100)")));
        assertEquals(
                "the run's options (--set, --scale, --repeat, or an environment variable a --set reads) or netns-lab"
                        + " version",
                RunInputs.differs(n200, n100));
    }

    /** A file the scenario includes is read into the fingerprint: hosts whose copies of it differ are told apart. */
    @Test
    public void anIncludedFileThatDiffersChangesTheScenarioFilesPart() throws Exception {
        Path dir = tmp.newFolder().toPath();
        Path file = dir.resolve("s.conf");
        Files.writeString(file, "include \"common.conf\"\nname = s\n");
        Files.writeString(dir.resolve("common.conf"), "workload.injectors = 1000\n");
        RunInputs in = new RunInputs(file.toString(), List.of(), 0.01, 0, 0, "");
        Config system = ConfigFactory.load();
        String[] before = in.fingerprint("netns-lab 0.1.0", system, List.of()).split("/");
        Files.writeString(dir.resolve("common.conf"), "workload.injectors = 100\n");
        String[] after = in.fingerprint("netns-lab 0.1.0", system, List.of()).split("/");
        assertNotEquals(before[0], after[0]);
        assertNotEquals(before[2], after[2]);
        assertEquals(before[1], after[1]);
        // and a --config file's
        Path conf = dir.resolve("cfg.conf");
        Files.writeString(conf, "include \"costs.conf\"\n");
        Files.writeString(dir.resolve("costs.conf"), "netns-lab.run.ask-timeout = 5s\n");
        RunInputs withConf = new RunInputs(file.toString(), List.of(), 0.01, 0, 0, conf.toString());
        String c1 = withConf.fingerprint("netns-lab 0.1.0", system, List.of());
        Files.writeString(dir.resolve("costs.conf"), "netns-lab.run.ask-timeout = 9s\n");
        String c2 = withConf.fingerprint("netns-lab 0.1.0", system, List.of());
        assertEquals("the --config file (or a file it includes)", RunInputs.differs(c2, c1));
    }

    /** A worker of another version, or of this version built from other code, is refused saying which. */
    @Test
    public void aWorkerOfOtherCodeIsRefusedSayingSo() {
        String fp = "a/b/c/d";
        assertEquals(
                "it runs netns-lab 0.1.0 (code 1111), this coordinator netns-lab 0.1.0 (code 2222) (one version built"
                        + " from other code: build both from one commit)",
                Coordinator.refusal("netns-lab 0.1.0 (code 1111)", fp, "netns-lab 0.1.0 (code 2222)", fp));
        assertEquals(
                "it runs netns-lab 0.2.0 (code 1111), this coordinator netns-lab 0.1.0 (code 2222)",
                Coordinator.refusal("netns-lab 0.2.0 (code 1111)", fp, "netns-lab 0.1.0 (code 2222)", fp));
        assertEquals(null, Coordinator.refusal("netns-lab 0.1.0 (code 1111)", fp, "netns-lab 0.1.0 (code 1111)", fp));
    }

    /** A worker that could not load the run names the file it lacks, and where a relative path is read from. */
    @Test
    public void aWorkerThatCannotLoadNamesTheFileItLacks() {
        String here = Path.of("").toAbsolutePath().toString();
        assertEquals(
                "this worker has no --config file no-such.conf (a relative path is read from the worker's working"
                        + " folder, " + here + ")",
                Worker.notLoaded(new RunInputs("load-tests/unshare-loop.conf", List.of(), 1, 0, 0, "no-such.conf")));
        assertEquals(
                "this worker has no scenario file no-such/s.conf (a relative path is read from the worker's working"
                        + " folder, " + here + ")",
                Worker.notLoaded(new RunInputs("no-such/s.conf", List.of(), 1, 0, 0, "")));
        assertEquals(
                "this worker could not load load-tests/unshare-loop.conf (see its stderr)",
                Worker.notLoaded(new RunInputs("load-tests/unshare-loop.conf", List.of(), 1, 0, 0, "")));
    }

    /** The code digest is of this build's classes: stable within a JVM, 16 hex digits. */
    @Test
    public void theCodeDigestIsSixteenHexDigits() {
        assertTrue(CodeDigest.of(), CodeDigest.of().matches("[0-9a-f]{16}"));
        assertEquals(CodeDigest.of(), CodeDigest.of());
    }

    @Test
    public void onlyLoopbackAddressesListenWithoutTls() {
        assertTrue(ClusterConfig.isLoopback("127.0.0.1"));
        assertTrue(ClusterConfig.isLoopback("localhost"));
        Config c = ClusterConfig.of(
                ConfigFactory.load(),
                new ClusterConfig.HostPort("127.0.0.1", 0),
                new ClusterConfig.HostPort("127.0.0.1", 2552),
                "worker");
        assertEquals("cluster", c.getString("akka.actor.provider"));
        assertEquals(List.of("akka://netns-lab-cluster@127.0.0.1:2552"), c.getStringList("akka.cluster.seed-nodes"));
        try {
            ClusterConfig.of(
                    ConfigFactory.load(),
                    new ClusterConfig.HostPort("0.0.0.0", 2553),
                    new ClusterConfig.HostPort("127.0.0.1", 2552),
                    "worker");
            org.junit.Assert.fail("listened on every interface in clear text");
        } catch (IllegalArgumentException e) {
            assertTrue(
                    e.getMessage(),
                    e.getMessage()
                            .startsWith("0.0.0.0:2553 is not a loopback address: a cluster beyond"
                                    + " this host needs Artery's TLS transport"));
        }
        try {
            tlsWorker("akka.remote.artery.transport = tls-tcp\n"
                    + "akka.remote.artery.ssl.config-ssl-engine.key-store = \"/nonexistent/node.p12\"");
            org.junit.Assert.fail("started TLS without its key store");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("key-store: cannot read '/nonexistent/node.p12'"));
        }
    }

    /** @return a worker's node configuration at 192.0.2.1:2553 joining 192.0.2.2:2552, over {@code conf} */
    private static Config tlsWorker(String conf) {
        return ClusterConfig.of(
                ConfigFactory.parseString(conf).withFallback(ConfigFactory.load()),
                new ClusterConfig.HostPort("192.0.2.1", 2553),
                new ClusterConfig.HostPort("192.0.2.2", 2552),
                "worker");
    }

    /** @return what {@link #tlsWorker} refuses {@code conf} with */
    private static IllegalArgumentException refused(String conf) {
        return org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> tlsWorker(conf));
    }

    /**
     * A store opened with the wrong password is refused before the node starts, in one line naming the key; so is a key
     * store with no key of the node's own (certificates only: a trust store given as the key store).
     */
    @Test
    public void aTlsStoreWithTheWrongPasswordIsRefusedBeforeTheNodeStarts() throws Exception {
        java.nio.file.Path store = tmp.getRoot().toPath().resolve("node.p12");
        TestKeyStores.keyPair(store, "-1d", 30);
        String tls = "akka.remote.artery.transport = tls-tcp\n"
                + "akka.remote.artery.ssl.config-ssl-engine { key-store = \"" + store + "\", trust-store = \"" + store
                + "\", key-password = changeme, trust-store-password = changeme, key-store-password = ";
        tlsWorker(tls + "changeme }"); // the right password: the stores open
        java.nio.file.Path certsOnly = tmp.newFile("trust.p12").toPath();
        java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (var out = java.nio.file.Files.newOutputStream(certsOnly)) {
            ks.store(out, "changeme".toCharArray());
        }
        assertEquals(
                "akka.remote.artery.ssl.config-ssl-engine.key-store: '" + certsOnly + "' holds no private key, only"
                        + " certificates (a trust store?): a node's key store holds its own key and certificate, made"
                        + " as docs/parallel-runs.md shows",
                refused(tls.replaceFirst("key-store = \"[^\"]*\"", "key-store = \"" + certsOnly + "\"") + "changeme }")
                        .getMessage());
        assertEquals(
                "akka.remote.artery.ssl.config-ssl-engine.key-store: cannot open '" + store + "' with"
                        + " akka.remote.artery.ssl.config-ssl-engine.key-store-password (the password does not open"
                        + " it): check that password (docs/parallel-runs.md sets it from"
                        + " NETNS_LAB_KEYSTORE_PASSWORD or NETNS_LAB_TRUSTSTORE_PASSWORD)",
                refused(tls + "wrong }").getMessage());
        java.nio.file.Files.writeString(store, "not a key store"); // what a text file given as a store reads as
        String text = refused(tls + "changeme }").getMessage();
        assertTrue(
                text,
                text.startsWith("akka.remote.artery.ssl.config-ssl-engine.key-store: '" + store + "' is not a key"
                        + " store (a PKCS12 or JKS file, made as docs/parallel-runs.md shows): "));
        java.nio.file.Path folder = tmp.newFolder("stores").toPath(); // no password opens a folder: none is blamed
        String dir = refused(tls.replace(store.toString(), folder.toString()) + "changeme }")
                .getMessage();
        assertTrue(dir, dir.endsWith("shows): it is a folder"));
    }
}
