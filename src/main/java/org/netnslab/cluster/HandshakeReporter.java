package org.netnslab.cluster;

import akka.actor.ActorSystem;
import akka.actor.ExtendedActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.eventstream.EventStream;
import akka.actor.typed.javadsl.Behaviors;
import akka.remote.artery.tcp.ConfigSSLEngineProvider;
import java.io.IOException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * Akka's TLS engines ({@link ConfigSSLEngineProvider}, keys under {@code akka.remote.artery.ssl.config-ssl-engine})
 * with every failed TLS connection said: which peer and why, published on the actor system's event stream as a
 * {@link Refused} that the coordinator and the workers print ({@link #printer}). Akka's own TLS stage fails such a
 * connection without a word, so a node kept out by its certificate would just never join. The peer of an inbound
 * connection is the one whose connection on this node's port closed right after the failure ({@link TcpPeers}); of
 * an outbound one, the address connected to. {@link ClusterConfig} selects this provider in place of Akka's.
 */
public final class HandshakeReporter extends ConfigSSLEngineProvider {
    /**
     * A TLS connection with a peer failed.
     *
     * @param peer the peer's address
     * @param why what failed and what to do
     */
    public record Refused(String peer, String why) {
        /** @return the line a node prints */
        public String line() {
            return "the TLS handshake with " + peer + " failed: " + why;
        }
    }

    private static final String KEYS = "akka.remote.artery.ssl.config-ssl-engine.";
    /** How often, and how many times, to look for the connection that closed after a failure. */
    private static final Duration LOOK_EVERY = Duration.ofMillis(200);

    private static final int LOOKS = 15;

    private final ExtendedActorSystem system;

    /**
     * Made by Akka's remoting, once per actor system, when it is named by
     * {@code akka.remote.artery.ssl.ssl-engine-provider}.
     *
     * @param system the node's actor system
     */
    public HandshakeReporter(ActorSystem system) {
        super(system);
        this.system = (ExtendedActorSystem) system;
    }

    @Override
    public SSLEngine createServerSSLEngine(String hostname, int port) {
        return new TlsEngine(super.createServerSSLEngine(hostname, port), this::inboundFailed);
    }

    @Override
    public SSLEngine createClientSSLEngine(String hostname, int port) {
        return new TlsEngine(
                super.createClientSSLEngine(hostname, port),
                e -> publish(hostname + ":" + port, why(e, SSLKeyStore(), SSLTrustStore())));
    }

    /**
     * @param say prints a line
     * @return an actor that prints each failure the node's event stream carries, once per peer and reason (a refused
     *     node retries every few seconds)
     */
    public static Behavior<Refused> printer(Consumer<String> say) {
        return Behaviors.setup(ctx -> {
            ctx.getSystem().eventStream().tell(new EventStream.Subscribe<>(Refused.class, ctx.getSelf()));
            Set<Refused> said = new HashSet<>();
            return Behaviors.receiveMessage(r -> {
                if (said.add(r)) {
                    say.accept(r.line());
                }
                return Behaviors.same();
            });
        });
    }

    /** On the TLS stage's thread: notes the connections open now, and looks for the one that closes. */
    private void inboundFailed(SSLException e) {
        int port = (Integer) system.provider().getDefaultAddress().port().get();
        String why = why(e, SSLKeyStore(), SSLTrustStore());
        try {
            look(port, TcpPeers.open(port), why, LOOKS);
        } catch (IOException io) {
            publish("a peer (its address is unknown: /proc/net/tcp: " + io.getMessage() + ")", why);
        }
    }

    private void look(int port, Set<String> before, String why, int left) {
        system.scheduler()
                .scheduleOnce(
                        LOOK_EVERY,
                        () -> {
                            Set<String> gone = new TreeSet<>(before);
                            try {
                                gone.removeAll(TcpPeers.open(port));
                            } catch (IOException io) {
                                gone.clear();
                            }
                            Set<String> hosts = new TreeSet<>();
                            gone.forEach(p -> hosts.add(p.substring(0, p.lastIndexOf(':'))));
                            if (!hosts.isEmpty()) {
                                publish(String.join(" or ", hosts), why);
                            } else if (left > 1) {
                                look(port, before, why, left - 1);
                            } else {
                                publish("a peer whose connection could not be found", why);
                            }
                        },
                        system.dispatcher());
    }

    private void publish(String peer, String why) {
        system.eventStream().publish(new Refused(peer, why));
    }

    /**
     * @param e the engine's failure
     * @param keyStore this node's key store, for the message
     * @param trustStore this node's trust store, for the message
     * @return why, in words, with the key to look at; never an exception's class name
     */
    static String why(SSLException e, String keyStore, String trustStore) {
        for (Throwable t = e;
                t != null;
                t = t.getCause()) { // the dates first: PKIX wraps them in a CertificateException
            if (t instanceof CertificateExpiredException
                    || t instanceof CertificateNotYetValidException
                    || t instanceof java.security.cert.CertPathValidatorException v
                            && (v.getReason() == java.security.cert.CertPathValidatorException.BasicReason.EXPIRED
                                    || v.getReason()
                                            == java.security.cert.CertPathValidatorException.BasicReason
                                                    .NOT_YET_VALID)) {
                return "its certificate is outside its validity dates; give that node a current one";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CertificateException) {
                return "its certificate is not trusted here: nothing in " + KEYS + "trust-store ('"
                        + trustStore + "') signs it; that node cannot join until its certificate or CA is"
                        + " added there";
            }
        }
        String m = String.valueOf(e.getMessage());
        if (m.startsWith("Received fatal alert: ")) {
            String alert = m.substring("Received fatal alert: ".length());
            return alert.contains("certificate") || alert.equals("unknown_ca")
                    ? "it did not accept this node's certificate (TLS alert " + alert + "): its trust store lacks"
                            + " the CA or certificate of " + KEYS + "key-store ('" + keyStore + "')"
                    : "it ended the handshake (TLS alert " + alert + ")";
        }
        if (m.contains("Empty") && m.contains("certificate chain")) { // none of its certificates has an issuer we trust
            return "it presented no certificate that " + KEYS + "trust-store ('" + trustStore + "') trusts;"
                    + " that node cannot join until its key store holds a certificate signed by a CA in that trust store"
                    + " (require-mutual-authentication = on)";
        }
        if (m.contains("plaintext connection") || m.contains("Unrecognized SSL message")) { // JSSE's on clear text
            return "it spoke clear text to this TLS node: its --config lacks akka.remote.artery.transport = tls-tcp"
                    + " and the TLS stores every node of the cluster needs (docs/parallel-runs.md)";
        }
        if (m.contains("cipher suites in common") || m.contains("protocol")) {
            return "no TLS protocol or cipher suite in common: give every node the same " + KEYS + "protocol and"
                    + " enabled-algorithms";
        }
        return m.replaceAll("(?:[a-z]\\w*\\.)+[A-Z]\\w*(?:Exception|Error): ", "");
    }
}
