package org.netnslab.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.Assert;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A cluster node's settings and addresses: the cluster's settings take the place of Akka's defaults but not of the
 * node's own; an address that cannot be joined or listened at is refused in one line; a TLS node's failed handshakes
 * are said with the peer (its address from /proc/net/tcp) and why.
 */
public class ClusterConfigTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final ClusterConfig.HostPort BIND = new ClusterConfig.HostPort("127.0.0.1", 0);
    private static final ClusterConfig.HostPort SEED = new ClusterConfig.HostPort("127.0.0.1", 2552);

    @Test
    public void theClustersSettingsReplaceAkkasDefaultsButNotTheNodesOwn() {
        Config c = ClusterConfig.of(ConfigFactory.load(), BIND, SEED, "worker");
        assertEquals("akka.cluster.sbr.SplitBrainResolverProvider", c.getString("akka.cluster.downing-provider-class"));
        assertEquals("keep-oldest", c.getString("akka.cluster.split-brain-resolver.active-strategy"));
        assertEquals(Duration.ofSeconds(5), c.getDuration("akka.cluster.split-brain-resolver.stable-after"));
        assertEquals(
                2 << 20,
                c.getBytes("akka.remote.artery.advanced.maximum-frame-size").intValue());
        assertEquals(Duration.ofHours(1), c.getDuration("akka.remote.artery.advanced.stop-quarantined-after-idle"));
        Config own = ConfigFactory.parseString("akka.cluster.split-brain-resolver.stable-after = 2s")
                .withFallback(ConfigFactory.load());
        assertEquals(
                Duration.ofSeconds(2),
                ClusterConfig.of(own, BIND, SEED, "worker")
                        .getDuration("akka.cluster.split-brain-resolver.stable-after"));
    }

    @Test
    public void anAddressNoNodeCanUseIsRefusedInOneLine() throws Exception {
        assertEquals(
                new ClusterConfig.HostPort("127.0.0.1", 0), ClusterConfig.HostPort.parseBind("127.0.0.1:0", "--bind"));
        assertEquals(
                "--cluster 127.0.0.1:0: port 0 means any free port, which no worker could be told to join; give the"
                        + " coordinator a fixed port, e.g. 127.0.0.1:2552",
                Assert.assertThrows(
                                IllegalArgumentException.class,
                                () -> ClusterConfig.HostPort.parse("127.0.0.1:0", "--cluster"))
                        .getMessage());
        assertEquals(
                "--join nowhere.invalid:2552: cannot resolve the host 'nowhere.invalid' (no such name in DNS or"
                        + " /etc/hosts); give an IP address or a name this host resolves",
                Assert.assertThrows(
                                IllegalArgumentException.class,
                                () -> ClusterConfig.HostPort.parse("nowhere.invalid:2552", "--join"))
                        .getMessage());
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            ClusterConfig.HostPort at = new ClusterConfig.HostPort("127.0.0.1", taken.getLocalPort());
            assertEquals(
                    "--cluster " + at + ": port " + at.port() + " is already in use on 127.0.0.1 (another coordinator"
                            + " or program listens there); choose a free port or stop that program",
                    Assert.assertThrows(
                                    IllegalArgumentException.class, () -> ClusterConfig.checkCanListen(at, "--cluster"))
                            .getMessage());
        }
        ClusterConfig.checkCanListen(BIND, "--bind"); // any free port: always
    }

    @Test
    public void aTlsNodeReportsItsFailedHandshakes() throws Exception {
        Path store = tmp.getRoot().toPath().resolve("node.p12"); // Akka's default password: it opens
        TestKeyStores.keyPair(store, "-1d", 30);
        Config tls = ConfigFactory.parseString("akka.remote.artery.transport = tls-tcp\n"
                        + "akka.remote.artery.ssl.config-ssl-engine { key-store = \"" + store + "\", trust-store = \""
                        + store + "\" }")
                .withFallback(ConfigFactory.load());
        assertEquals(
                HandshakeReporter.class.getName(),
                ClusterConfig.of(tls, BIND, SEED, "worker").getString("akka.remote.artery.ssl.ssl-engine-provider"));
        Config own = ConfigFactory.parseString("akka.remote.artery.ssl.ssl-engine-provider = my.Provider")
                .withFallback(tls);
        assertEquals(
                "my.Provider",
                ClusterConfig.of(own, BIND, SEED, "worker").getString("akka.remote.artery.ssl.ssl-engine-provider"));
    }

    /**
     * A node whose own certificate has expired is refused as it starts, with the certificate's dates: its peers would
     * say only that they did not accept it. (keytool, from this JVM, makes one that expired a week ago.)
     */
    @Test
    public void aKeyStoreWhoseCertificateExpiredIsRefusedAsTheNodeStarts() throws Exception {
        Path store = tmp.getRoot().toPath().resolve("expired.p12");
        TestKeyStores.keyPair(store, "-10d", 3);
        Config tls = ConfigFactory.parseString("akka.remote.artery.transport = tls-tcp\n"
                        + "akka.remote.artery.ssl.config-ssl-engine { key-store = \"" + store + "\", trust-store = \""
                        + store + "\" }")
                .withFallback(ConfigFactory.load());
        IllegalArgumentException e = org.junit.Assert.assertThrows(
                IllegalArgumentException.class, () -> ClusterConfig.of(tls, BIND, SEED, "worker"));
        assertTrue(
                e.getMessage(),
                e.getMessage()
                        .matches("akka\\.remote\\.artery\\.ssl\\.config-ssl-engine\\.key-store: the certificate of"
                                + " 'node' in '.*expired\\.p12' is valid from \\S+ to \\S+, not now: every peer would"
                                + " refuse it; give this node a current one \\(docs/parallel-runs\\.md\\)"));
    }

    @Test
    public void aFailedHandshakeIsSaidInWords() {
        SSLHandshakeException untrusted = new SSLHandshakeException("PKIX path building failed");
        untrusted.initCause(new CertificateException("sun.security.validator.ValidatorException: no path"));
        assertEquals(
                "its certificate is not trusted here: nothing in akka.remote.artery.ssl.config-ssl-engine.trust-store"
                        + " ('/t.p12') signs it; that node cannot join until its certificate or CA is added there",
                HandshakeReporter.why(untrusted, "/k.p12", "/t.p12"));
        assertEquals(
                "it did not accept this node's certificate (TLS alert bad_certificate): its trust store lacks the CA"
                        + " or certificate of akka.remote.artery.ssl.config-ssl-engine.key-store ('/k.p12')",
                HandshakeReporter.why(
                        new SSLHandshakeException("Received fatal alert: bad_certificate"), "/k.p12", "/t.p12"));
        assertTrue(HandshakeReporter.why(new SSLHandshakeException("Empty client certificate chain"), "/k", "/t")
                .startsWith("it presented no certificate that akka.remote.artery.ssl.config-ssl-engine.trust-store"
                        + " ('/t') trusts"));
        assertEquals(
                "it spoke clear text to this TLS node: its --config lacks akka.remote.artery.transport = tls-tcp and"
                        + " the TLS stores every node of the cluster needs (docs/parallel-runs.md)",
                HandshakeReporter.why(new SSLException("Unrecognized SSL message, plaintext connection?"), "/k", "/t"));
        // PKIX wraps an expired certificate's exception in a CertificateException (ValidatorException)
        SSLHandshakeException expired = new SSLHandshakeException("PKIX path validation failed");
        CertificateException validator = new CertificateException("PKIX path validation failed: validity check failed");
        validator.initCause(new java.security.cert.CertPathValidatorException(
                "validity check failed",
                new java.security.cert.CertificateExpiredException("NotAfter: Sat Nov 29 00:00:00 UTC 2026"),
                null,
                -1,
                java.security.cert.CertPathValidatorException.BasicReason.EXPIRED));
        expired.initCause(validator);
        assertEquals(
                "its certificate is outside its validity dates; give that node a current one",
                HandshakeReporter.why(expired, "/k.p12", "/t.p12"));
        assertEquals(
                "something odd",
                HandshakeReporter.why(
                        new SSLHandshakeException("javax.net.ssl.SSLException: something odd"), "/k", "/t"));
    }

    @Test
    public void theKernelsTcpTableNamesTheConnectionsPeers() throws Exception {
        assertEquals("127.0.0.1:8080", TcpPeers.endpoint("0100007F:1F90"));
        assertEquals("10.77.0.2:41234", TcpPeers.endpoint("0000000000000000FFFF000002004D0A:A112"));
        assertEquals("0:0:0:0:0:0:0:1:80", TcpPeers.endpoint("00000000000000000000000001000000:0050"));
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                Socket client = new Socket("127.0.0.1", server.getLocalPort());
                Socket accepted = server.accept()) {
            assertEquals(
                    List.of("127.0.0.1:" + client.getLocalPort()), List.copyOf(TcpPeers.open(server.getLocalPort())));
        }
    }
}
