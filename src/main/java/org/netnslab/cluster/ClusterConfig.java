package org.netnslab.cluster;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.remote.artery.tcp.ConfigSSLEngineProvider;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netnslab.scenario.ScenarioRun;

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
         * An address a node joins or listens at that others are told: a fixed port, a host this machine resolves.
         *
         * @param arg {@code HOST:PORT}
         * @param option the option it came from, for the message
         * @return the address
         * @throws IllegalArgumentException naming the option when it is not HOST:PORT with a port 1..65535, or its host
         *     cannot be resolved
         */
        public static HostPort parse(String arg, String option) {
            HostPort a = parseBind(arg, option);
            if (a.port() == 0) {
                throw new IllegalArgumentException(option + " " + arg + ": port 0 means any free port, which no"
                        + " worker could be told to join; give the coordinator a fixed port, e.g. " + a.host()
                        + ":2552");
            }
            return a;
        }

        /**
         * An address this node listens at, port 0 allowed (any free port: a worker's, which the coordinator learns
         * when it joins).
         *
         * @param arg {@code HOST:PORT}
         * @param option the option it came from, for the message
         * @return the address
         * @throws IllegalArgumentException naming the option when it is not HOST:PORT with a port 0..65535, or its host
         *     cannot be resolved
         */
        public static HostPort parseBind(String arg, String option) {
            java.util.regex.Matcher url = java.util.regex.Pattern.compile(
                            "[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/]*@)?([^/]*).*")
                    .matcher(arg);
            if (url.matches()) { // pasted from the coordinator's line, or a URL: its HOST:PORT is what is meant
                throw new IllegalArgumentException(option + " " + arg + ": give the HOST:PORT alone, e.g. "
                        + (url.group(1).matches("[^:]+:\\d+") ? url.group(1) : "127.0.0.1:2552"));
            }
            String expected = option + ": expected HOST:PORT (e.g. 127.0.0.1:2552), got '" + arg + "'";
            int colon = arg.lastIndexOf(':');
            int port;
            try {
                if (colon <= 0) {
                    throw new NumberFormatException();
                }
                port = Integer.parseInt(arg.substring(colon + 1));
                if (port < 0 || port > 65535) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(expected);
            }
            String host = arg.substring(0, colon);
            if (host.matches("[^:\\[\\]]+:\\d+")) { // one colon too many: HOST:PORT:N
                throw new IllegalArgumentException(expected + " (one colon too many)");
            }
            if (host.contains(":") || host.startsWith("[")) { // Akka's canonical hostname does not take IPv6 here
                throw new IllegalArgumentException(option + " " + arg + ": an IPv6 address; the cluster listens at an"
                        + " IPv4 address or a host name, e.g. 127.0.0.1:" + port);
            }
            if (host.matches("[0-9.]+")
                    && !host.matches("\\d{1,3}(\\.\\d{1,3}){3}")) { // 127.1: Akka takes it for a name
                throw new IllegalArgumentException(option + " " + arg + ": write the IPv4 address in full, four"
                        + " numbers, e.g. 127.0.0.1:" + port);
            }
            try {
                InetAddress.getByName(host);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(option + " " + arg + ": cannot resolve the host '" + host
                        + "' (no such name in DNS or /etc/hosts); give an IP address or a name this host resolves");
            }
            return new HostPort(host, port);
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /**
     * Checks that this node can listen at {@code bind} before its actor system tries (Akka would print two stack
     * traces): the port is free and the host is one of this machine's addresses. Port 0 always can.
     *
     * @param bind where the node will listen
     * @param option the option it came from, for the message
     * @throws IllegalArgumentException naming the option, the port and what to do
     */
    public static void checkCanListen(HostPort bind, String option) {
        if (bind.port() == 0) {
            return;
        }
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(bind.host(), bind.port()));
        } catch (BindException e) {
            throw cannotListen(bind, option, e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    option + " " + bind + ": cannot listen there (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Creates a node's actor system; a port that another program took since {@link #checkCanListen} is said in one
     * line.
     *
     * @param guardian the system's guardian
     * @param config from {@link #of}
     * @param bind where the node listens
     * @param option the option {@code bind} came from, for the message
     * @return the system
     * @throws IllegalArgumentException when it cannot listen at {@code bind}, or Akka cannot start with the
     *     configuration ({@link ScenarioRun#cannotStart})
     */
    static <T> ActorSystem<T> create(Behavior<T> guardian, Config config, HostPort bind, String option) {
        try {
            return ActorSystem.create(guardian, SYSTEM, config);
        } catch (Exception e) { // Akka may throw a checked exception (a class not found) unchecked
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof BindException b) {
                    throw cannotListen(bind, option, b);
                }
            }
            throw ScenarioRun.cannotStart(config, e);
        }
    }

    /**
     * Terminates a node's actor system (Akka's coordinated shutdown: the node leaves the cluster first) and waits for
     * it.
     *
     * @param system the node's actor system
     * @param within how long to wait
     * @return whether it ended in time (false also when interrupted, the interrupt kept)
     */
    static boolean terminate(ActorSystem<?> system, Duration within) {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(within.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** @return the one-line refusal for a failed bind of {@code bind} */
    static IllegalArgumentException cannotListen(HostPort bind, String option, Exception e) {
        String why = String.valueOf(e.getMessage());
        return new IllegalArgumentException(
                option + " " + bind + ": "
                        + (why.contains("in use")
                                ? "port " + bind.port() + " is already in use on " + bind.host()
                                        + " (another coordinator or program listens there); choose a free port or"
                                        + " stop that program"
                                : why.contains("assign requested address")
                                        ? "no interface of this host has the address " + bind.host()
                                                + "; give one of its addresses"
                                        : "cannot listen there (" + why + ")"),
                e);
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
        return of(base, bind, seed, role, null, null);
    }

    /**
     * {@link #of(Config, HostPort, HostPort, String)}, its messages naming where each address came from.
     *
     * @param base the node's merged configuration
     * @param bind where this node listens
     * @param seed the coordinator's address (the coordinator passes its own)
     * @param role "coordinator" or "worker"
     * @param bindFrom the option or key {@code bind} came from, e.g. {@code --cluster}; null: none said
     * @param seedFrom the option or key {@code seed} came from, e.g. {@code --join}; null: none said
     * @return the cluster actor system's configuration
     * @throws IllegalArgumentException when an address is not loopback and TLS is not configured, naming why
     */
    public static Config of(Config base, HostPort bind, HostPort seed, String role, String bindFrom, String seedFrom) {
        Config merged = withDefaults(base);
        String transport = merged.getString("akka.remote.artery.transport");
        if (!merged.getBoolean("akka.remote.artery.enabled")
                || !List.of("tcp", "tls-tcp").contains(transport)) {
            // aeron-udp needs Aeron, classic remoting Netty: neither is on netns-lab's classpath
            throw new IllegalArgumentException("akka.remote.artery.transport: the cluster runs on Artery's tcp or"
                    + " tls-tcp transport (akka.remote.artery.enabled = on), got "
                    + (merged.getBoolean("akka.remote.artery.enabled") ? "'" + transport + "'" : "Artery turned off"));
        }
        boolean tls = "tls-tcp".equals(transport);
        for (HostPort a : List.of(bind, seed)) {
            if (!isLoopback(a.host()) && !tls) {
                String from = a == bind ? bindFrom : seedFrom;
                throw new IllegalArgumentException((from == null ? a + " is" : from + " " + a + ":")
                        + " not a loopback address: a cluster beyond this host needs Artery's"
                        + " TLS transport (akka.remote.artery.transport = tls-tcp with akka.remote.artery.ssl.config-ssl-engine"
                        + " key-store and trust-store, in a --config file; see docs/parallel-runs.md); refusing to "
                        + (a == bind ? "listen" : "join it") + " in clear text");
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
                TlsStores.open(merged, store); // a wrong password is said here, not as Akka's stack traces later
            }
        }
        Map<String, Object> keys = new HashMap<>();
        keys.put("akka.actor.provider", "cluster");
        keys.put("akka.remote.artery.canonical.hostname", bind.host());
        keys.put("akka.remote.artery.canonical.port", bind.port());
        keys.put("akka.cluster.seed-nodes", List.of("akka://" + SYSTEM + "@" + seed));
        keys.put("akka.cluster.roles", List.of(role));
        if (tls && merged.getString(PROVIDER).equals(ConfigSSLEngineProvider.class.getName())) {
            keys.put(PROVIDER, HandshakeReporter.class.getName()); // the same engines, failures said with the peer
        }
        return ConfigFactory.parseMap(keys).withFallback(merged);
    }

    private static final String PROVIDER = "akka.remote.artery.ssl.ssl-engine-provider";

    /**
     * The cluster's settings under the node's own: a key that conf/application.conf, {@code --config} or a system
     * property sets keeps its value; one that only a reference.conf sets (Akka's defaults: no downing provider, a
     * 20 s stable-after) takes the cluster's.
     */
    static Config withDefaults(Config base) {
        Config merged = base;
        for (Map.Entry<String, ConfigValue> e : defaults().entrySet()) {
            String key = e.getKey();
            if (!base.hasPath(key)
                    || "reference.conf".equals(base.getValue(key).origin().resource())) {
                merged = merged.withValue(key, e.getValue());
            }
        }
        return merged;
    }

    /** The cluster's settings ({@link #withDefaults}: a --config may change each). */
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
                "akka.coordinated-shutdown.exit-jvm = off",
                // a node that left is quarantined; Akka stops its idle streams 3 s later and, when this node is
                // shutting down by then, warns of it: a node lives one run, its connections end with it
                "akka.remote.artery.advanced.stop-quarantined-after-idle = 1h"));
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
