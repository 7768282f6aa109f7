package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.japi.Pair;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import com.typesafe.config.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcReceived;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

public class EmbeddingTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    /** The README's example, line for line (the test below checks they are the same). */
    static String example(ActorSystem<?> system) throws Exception {
        Config config = system.settings().config(); // netns-lab.embedded.design picks the design
        ActorRef<NamespaceSupervisor.Command> supervisor =
                system.systemActorOf(NetnsLab.supervisor(config), "netns-lab", Props.empty());
        NetnsLab.Client lab = NetnsLab.client(system, supervisor, Duration.ofSeconds(5));

        UserNamespace userns = UserNamespace.INIT.createChild(1, 1000); // unshare -U by uid 1000
        NetnsHandle netns = lab.createNetns(userns).toCompletableFuture().get();

        Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<List<Received>>> listener = // rmem_default
                lab.uevents(netns, SocketOptions.DEFAULT)
                        .take(1)
                        .toMat(Sink.seq(), Keep.both())
                        .run(system);
        listener.first().toCompletableFuture().get(); // bound: it sees every later uevent

        byte[] payload = "add@/devices/virtual/net/veth0\0ACTION=add\0".getBytes(StandardCharsets.US_ASCII);
        InjectResult sent = lab.inject(netns, Credentials.root(userns, 1000), payload)
                .toCompletableFuture()
                .get();
        Uevent received = (Uevent) listener.second().toCompletableFuture().get().get(0);

        lab.releaseNetns(netns.id()).toCompletableFuture().get(); // put_net: cleanup_net, net_free
        return sent + " -> " + received.decode();
    }

    @Test
    public void theReadmeExampleRunsInATestKit() throws Exception {
        String out = example(testKit.system());
        assertEquals(
                "Sent[seqnum=1] -> UeventMessage[header=add@/devices/virtual/net/veth0, keys={ACTION=add, SEQNUM=1}]",
                out);
    }

    /**
     * A null argument to inject, uevents, start or client is refused at the call, naming it, and the netns it named
     * still works: a null payload or socket options reaching the netns's actor would fail it.
     */
    @Test
    public void aNullInjectArgumentIsRefusedAtTheCallAndTheNetnsLives() throws Exception {
        ActorRef<NamespaceSupervisor.Command> supervisor =
                testKit.spawn(NetnsLab.supervisor(testKit.system().settings().config()));
        NetnsLab.Client lab = NetnsLab.client(testKit.system(), supervisor, Duration.ofSeconds(5));
        UserNamespace userns = UserNamespace.INIT.createChild(1, 1000);
        NetnsHandle netns = lab.createNetns(userns).toCompletableFuture().get();
        Credentials root = Credentials.root(userns, 1000);
        byte[] payload = "add@/devices/virtual/net/veth0\0ACTION=add\0".getBytes(StandardCharsets.US_ASCII);
        assertEquals(
                "inject: payload is null",
                org.junit.Assert.assertThrows(NullPointerException.class, () -> lab.inject(netns, root, null))
                        .getMessage());
        assertEquals(
                "inject: sender is null",
                org.junit.Assert.assertThrows(NullPointerException.class, () -> lab.inject(netns, null, payload))
                        .getMessage());
        assertEquals(
                "uevents: options is null (SocketOptions.DEFAULT for the defaults)",
                org.junit.Assert.assertThrows(
                                NullPointerException.class,
                                () -> lab.uevents(netns, (org.netnslab.netlink.SocketOptions) null))
                        .getMessage());
        assertEquals(
                "uevents: netns is null",
                org.junit.Assert.assertThrows(NullPointerException.class, () -> lab.uevents(null, 8))
                        .getMessage());
        assertEquals(
                "start: system is null",
                org.junit.Assert.assertThrows(
                                NullPointerException.class,
                                () -> NetnsLab.start(
                                        null, testKit.system().settings().config(), Duration.ofSeconds(1)))
                        .getMessage());
        assertEquals(
                "client: supervisor is null",
                org.junit.Assert.assertThrows(
                                NullPointerException.class,
                                () -> NetnsLab.client(testKit.system(), null, Duration.ofSeconds(1)))
                        .getMessage());
        assertEquals(
                "Sent[seqnum=1]",
                lab.inject(netns, root, payload).toCompletableFuture().get().toString());
        lab.releaseNetns(netns.id()).toCompletableFuture().get();
    }

    /** A request timeout of 0 or below is refused at start, and by a client for one's own supervisor. */
    @Test
    public void aTimeoutThatIsNotAboveZeroIsRefusedAtStart() {
        ActorRef<NamespaceSupervisor.Command> supervisor =
                testKit.spawn(NetnsLab.supervisor(testKit.system().settings().config()));
        for (Duration d : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            String refused = "netns-lab: the request timeout must be above 0, got " + d + ": every request would fail";
            assertEquals(
                    refused,
                    org.junit.Assert.assertThrows(
                                    IllegalArgumentException.class,
                                    () -> NetnsLab.start(
                                            testKit.system(),
                                            testKit.system().settings().config(),
                                            d))
                            .getMessage());
            assertEquals(
                    refused,
                    org.junit.Assert.assertThrows(
                                    IllegalArgumentException.class,
                                    () -> NetnsLab.client(testKit.system(), supervisor, d))
                            .getMessage());
        }
    }

    @Test
    public void procConnectorSubscriptionThroughTheClientGetsWhatItsMaskAsksFor() throws Exception {
        ActorRef<NamespaceSupervisor.Command> supervisor =
                testKit.spawn(NetnsLab.supervisor(testKit.system().settings().config()));
        NetnsLab.Client lab = NetnsLab.client(testKit.system(), supervisor, Duration.ofSeconds(5));
        var source = lab.procEvents(Credentials.root(UserNamespace.INIT, 0), ProcEvents.NONZERO_EXIT, 64)
                .toCompletableFuture()
                .get();
        CompletionStage<List<ProcReceived>> got = source.take(1).runWith(Sink.seq(), testKit.system());
        lab.publishProcEvent(new ProcEvent(ProcEvents.FORK, 0, 0, 0, 42, 42, 1, 0, 0));
        lab.publishProcEvent(new ProcEvent(ProcEvents.EXIT, 0, 0, 0, 41, 41, 0, 0, 17));
        lab.publishProcEvent(new ProcEvent(ProcEvents.EXIT, 0, 0, 0, 42, 42, 0, 9, 17)); // SIGKILL
        ProcEvent e = ((ProcReceived.Event) got.toCompletableFuture()
                        .get(10, java.util.concurrent.TimeUnit.SECONDS)
                        .get(0))
                .event();
        assertEquals(42, e.pid());
        assertEquals(9, e.exitCode());
        assertEquals("per-CPU seq: the third event from CPU 0", 3, e.seq());
    }

    /** The example application (a separate Maven project that CI builds against the installed library and runs). */
    static final Path EXAMPLE = Path.of("examples/embedding/src/main/java/org/netnslab/example/EmbeddingExample.java");

    static final String EXAMPLE_MARKER = "<!-- embedding-example: " + EXAMPLE + " -->";

    @Test
    public void theReadmeShowsTheWholeExampleClassOfExamplesEmbedding() throws Exception {
        List<String> readmeLines = Files.readAllLines(Path.of("README.md"));
        assertTrue("README carries " + EXAMPLE_MARKER, readmeLines.stream().anyMatch(l -> l.contains(EXAMPLE_MARKER)));
        List<String> readme = between(readmeLines, EXAMPLE_MARKER, "```\n");
        List<String> source =
                Files.readAllLines(EXAMPLE).stream().map(String::strip).toList();
        assertEquals("README's example is " + EXAMPLE + ", whole and line for line", source, readme);
    }

    /** Lines after the one containing {@code start} up to the closing marker, trimmed, blank lines kept. */
    private static List<String> between(List<String> lines, String start, String end) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        boolean fence = false;
        for (String l : lines) {
            if (!in) {
                in = l.contains(start);
                continue;
            }
            if (end.equals("```\n")) { // README: skip the opening fence, stop at the closing one
                if (l.startsWith("```")) {
                    if (fence) {
                        break;
                    }
                    fence = true;
                    continue;
                }
            } else if (l.contains(end)) {
                break;
            }
            out.add(l.strip());
        }
        return out;
    }
}
