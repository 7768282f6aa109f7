package org.netnslab.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration of a node's cluster actor system (Akka Cluster over Artery), built over the node's own
 * configuration (so {@code --config} may set any {@code akka.*} key, Artery's TLS ones included):
 * <ul>
 *   <li>Artery bound to the given host and port; the coordinator is the cluster's one seed node, and every
 *       worker joins it (Akka retries the join until the coordinator is up).</li>
 *   <li>Security: loopback addresses only, unless the merged configuration selects Artery's TLS transport
 *       ({@code akka.remote.artery.transport = tls-tcp}) with a key store and trust store that exist
 *       ({@code akka.remote.artery.ssl.config-ssl-engine}); otherwise the node refuses to start. Artery over
 *       plain TCP lets anyone who reaches the port send the node messages.</li>
 *   <li>Downing: Akka's split brain resolver, keep-oldest without down-if-alone: the coordinator (the oldest)
 *       stays, an unreachable worker is downed after {@code stable-after} (set to 5 s here) and its runs go to
 *       the others.</li>
 *   <li>The cluster's messages ({@link ClusterMessage}) go through Akka's Jackson serializer in CBOR.</li>
 * </ul>
 */
public final class ClusterConfig {
    /** The cluster's actor system name: the same on every node. */
    public static final String SYSTEM = "netns-lab-cluster";

    private ClusterConfig() {}

    /** A node's address as given on the command line. */
    public record HostPort(String host, int port) {
        /**
         * @param arg {@code HOST:PORT}
         * @param option the option it came from, for the message
         * @return the address
         * @throws IllegalArgumentException naming the option when it is not HOST:PORT with a port 0..65535
         */
        public static HostPort parse(String arg, String option) {
            int colon = arg.lastIndexOf(':');
            try {
                if (colon <= 0) {
                    throw new NumberFormatException();
                }
                int port = Integer.parseInt(arg.substring(colon + 1));
                if (port < 0 || port > 65535) {
                    throw new NumberFormatException();
                }
                return new HostPort(arg.substring(0, colon), port);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        option + ": expected HOST:PORT (e.g. 127.0.0.1:2552), got '" + arg + "'");
            }
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /**
     * @param base the node's merged configuration
     * @param bind where this node listens
     * @param seed the coordinator's address (the coordinator passes its own)
     * @param role "coordinator" or "worker"
     * @return the cluster actor system's configuration
     * @throws IllegalArgumentException when an address is not loopback and TLS is not configured, naming why
     */
    public static Config of(Config base, HostPort bind, HostPort seed, String role) {
        Config merged = base.withFallback(defaults());
        boolean tls = "tls-tcp".equals(merged.getString("akka.remote.artery.transport"));
        for (HostPort a : List.of(bind, seed)) {
            if (!isLoopback(a.host()) && !tls) {
                throw new IllegalArgumentException(
                        a + " is not a loopback address: a cluster beyond this host needs Artery's"
                                + " TLS transport (akka.remote.artery.transport = tls-tcp with akka.remote.artery.ssl.config-ssl-engine"
                                + " key-store and trust-store, in a --config file; see docs/parallel-runs.md); refusing to listen in clear text");
            }
        }
        if (tls) {
            for (String store : List.of("key-store", "trust-store")) {
                String path = merged.getString("akka.remote.artery.ssl.config-ssl-engine." + store);
                if (!Files.isReadable(Path.of(path))) {
                    throw new IllegalArgumentException(
                            "akka.remote.artery.ssl.config-ssl-engine." + store + ": cannot read '" + path
                                    + "' (TLS needs the node's key store and the trust store of the cluster's certificates)");
                }
            }
        }
        Map<String, Object> keys = new HashMap<>();
        keys.put("akka.actor.provider", "cluster");
        keys.put("akka.remote.artery.canonical.hostname", bind.host());
        keys.put("akka.remote.artery.canonical.port", bind.port());
        keys.put("akka.cluster.seed-nodes", List.of("akka://" + SYSTEM + "@" + seed));
        keys.put("akka.cluster.roles", List.of(role));
        return ConfigFactory.parseMap(keys).withFallback(merged);
    }

    /** Settings a --config may change. */
    private static Config defaults() {
        return ConfigFactory.parseString(String.join(
                "\n",
                "akka.actor.serialization-bindings { \"" + ClusterMessage.class.getName() + "\" = jackson-cbor }",
                "akka.remote.artery.advanced.maximum-frame-size = 2MiB",
                "akka.cluster.downing-provider-class = \"akka.cluster.sbr.SplitBrainResolverProvider\"",
                "akka.cluster.split-brain-resolver.active-strategy = keep-oldest",
                "akka.cluster.split-brain-resolver.keep-oldest.down-if-alone = off",
                "akka.cluster.split-brain-resolver.stable-after = 5s",
                "akka.cluster.jmx.multi-mbeans-in-same-jvm = on",
                "akka.coordinated-shutdown.exit-jvm = off"));
    }

    /**
     * @param host a host name or address
     * @return true when it names this host's loopback interface (127.0.0.0/8, ::1, localhost)
     */
    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
