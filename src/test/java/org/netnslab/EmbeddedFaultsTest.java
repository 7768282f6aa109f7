package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.uevent.Received;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/** What an embedding application gets wrong: its mistakes are refused with their name, not silently run. */
public class EmbeddedFaultsTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final UserNamespace USERNS = UserNamespace.INIT.createChild(1, 1000);

    private static Config config() {
        return testKit.system().settings().config();
    }

    /** Ids are per supervisor: a handle of one instance does not release the netns with its id in another. */
    @Test
    public void aHandleOfAnotherInstanceIsNotReleasedThere() throws Exception {
        NetnsLab.Instance a = NetnsLab.start(testKit.system(), config(), TIMEOUT);
        NetnsLab.Instance b = NetnsLab.start(testKit.system(), config(), TIMEOUT);
        try {
            NetnsHandle na =
                    a.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
            NetnsHandle nb =
                    b.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(na.id(), nb.id());
            Throwable e = NetnsLabStopTest.failure(b.client().releaseNetns(na));
            assertEquals(IllegalArgumentException.class, e.getClass());
            assertEquals(
                    "netns 1 of this handle (actor " + na.actor().path() + ") is not the netns 1 of " + b.name()
                            + ": use the client of the instance that created it",
                    e.getMessage());
            assertFalse(na.isFreed());
            assertFalse(nb.isFreed());
            assertEquals(
                    Done.getInstance(),
                    a.client().releaseNetns(na).toCompletableFuture().get(10, TimeUnit.SECONDS));
            assertTrue(na.isFreed());
            assertFalse(nb.isFreed());
        } finally {
            a.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
            b.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** A handle of a stopped instance is not the netns of the same id in a new instance of the same name. */
    @Test
    public void aHandleOfAStoppedInstanceOfTheSameNameIsNotReleased() throws Exception {
        NetnsLab.Instance first = NetnsLab.start(testKit.system(), config(), "lab-again", TIMEOUT);
        NetnsHandle old =
                first.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
        first.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        // the name is free once the system guardian has seen the first stop: asked again until it is
        NetnsLab.Instance second = testKit.createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10), () -> NetnsLab.start(testKit.system(), config(), "lab-again", TIMEOUT));
        try {
            NetnsHandle now =
                    second.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(old.actor().path(), now.actor().path()); // the same path, another incarnation
            Throwable e = NetnsLabStopTest.failure(second.client().releaseNetns(old));
            assertEquals(IllegalArgumentException.class, e.getClass());
            assertFalse(now.isFreed());
        } finally {
            second.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A release that outlasts the timeout (a listener still holds the netns) says the release stands, and a second
     * release is refused at once, as while the first is pending.
     */
    @Test
    public void aReleaseLaterThanTheTimeoutStandsAndIsNotMadeTwice() throws Exception {
        NetnsLab.Instance lab = NetnsLab.start(testKit.system(), config(), Duration.ofMillis(300));
        try {
            NetnsHandle netns =
                    lab.client().createNetns(USERNS).toCompletableFuture().get(10, TimeUnit.SECONDS);
            var listener = lab.client()
                    .uevents(netns, SocketOptions.DEFAULT)
                    .toMat(Sink.<Received>ignore(), Keep.left())
                    .run(testKit.system());
            listener.toCompletableFuture().get(10, TimeUnit.SECONDS); // bound: it holds the netns
            Throwable late = NetnsLabStopTest.failure(lab.client().releaseNetns(netns));
            assertEquals(java.util.concurrent.TimeoutException.class, late.getClass());
            assertEquals(
                    "netns 1: not freed within PT0.3S; the release stands (net_free waits for every socket and"
                            + " listener still open in it)",
                    late.getMessage());
            Throwable twice = NetnsLabStopTest.failure(lab.client().releaseNetns(netns));
            assertEquals(IllegalStateException.class, twice.getClass());
            assertTrue(twice.getMessage(), twice.getMessage().startsWith("netns 1: released already;"));
            assertFalse(netns.isFreed());
        } finally {
            lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** An automatic name skips one the application gave an instance of its own. */
    @Test
    public void anAutomaticNameSkipsOneTheApplicationTook() throws Exception {
        NetnsLab.Instance first = NetnsLab.start(testKit.system(), config(), TIMEOUT);
        int n = Integer.parseInt(first.name().substring("netns-lab-".length()));
        NetnsLab.Instance named = NetnsLab.start(testKit.system(), config(), "netns-lab-" + (n + 1), TIMEOUT);
        NetnsLab.Instance next = NetnsLab.start(testKit.system(), config(), TIMEOUT);
        try {
            assertEquals("netns-lab-" + (n + 2), next.name());
        } finally {
            for (NetnsLab.Instance i : new NetnsLab.Instance[] {first, named, next}) {
                i.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The model runs on the actor system's dispatcher: a passed configuration naming another is refused. */
    @Test
    public void aDispatcherOtherThanTheSystemsIsRefused() {
        Config other = ConfigFactory.parseString("netns-lab.dispatcher = \"my-dispatcher\"")
                .withFallback(config());
        IllegalArgumentException e = org.junit.Assert.assertThrows(
                IllegalArgumentException.class, () -> NetnsLab.start(testKit.system(), other, TIMEOUT));
        assertEquals(
                "netns-lab.dispatcher: the configuration passed names 'my-dispatcher', but the model runs on the"
                        + " actor system's own netns-lab.dispatcher ('netns-lab.model-dispatcher', read once per actor"
                        + " system): set it in the actor system's configuration",
                e.getMessage());
    }

    /** A misspelt block under netns-lab, or key under its embedded block, is named instead of ignored. */
    @Test
    public void aMisspeltKeyIsNamed() {
        IllegalArgumentException block = org.junit.Assert.assertThrows(
                IllegalArgumentException.class,
                () -> NetnsLab.design(ConfigFactory.parseString("netns-lab.embeded.design = kernel-4.18")
                        .withFallback(config())));
        assertTrue(block.getMessage(), block.getMessage().startsWith("netns-lab.embeded: not a netns-lab key"));
        assertTrue(block.getMessage(), block.getMessage().contains("embedded"));
        IllegalArgumentException key = org.junit.Assert.assertThrows(
                IllegalArgumentException.class,
                () -> NetnsLab.design(ConfigFactory.parseString("netns-lab.embedded.desing = kernel-4.18")
                        .withFallback(config())));
        assertTrue(
                key.getMessage(),
                key.getMessage()
                        .startsWith("netns-lab.embedded.desing: not a netns-lab key (misspelt?); the keys"
                                + " under netns-lab.embedded are [design]"));
        for (String[] c : new String[][] {
            {"netns-lab.model.uevent.nosuchkey = 3", "netns-lab.model.uevent.nosuchkey: not a model key"},
            {"netns-lab.designs.mine.nosuchkey = 3", "netns-lab.designs.mine.nosuchkey: not a model key"}
        }) {
            IllegalArgumentException m = org.junit.Assert.assertThrows(
                    IllegalArgumentException.class,
                    () -> NetnsLab.design(ConfigFactory.parseString(c[0]).withFallback(config())));
            assertTrue(m.getMessage(), m.getMessage().startsWith(c[1]));
        }
        assertEquals("per-netns-2018", NetnsLab.design(config()).name());
        IllegalArgumentException bareStart = org.junit.Assert.assertThrows(
                IllegalArgumentException.class,
                () -> NetnsLab.start(testKit.system(), ConfigFactory.parseString(""), TIMEOUT));
        assertTrue(
                bareStart.getMessage(),
                bareStart.getMessage().startsWith("netns-lab.designs and netns-lab.model: missing"));
        IllegalArgumentException bare = org.junit.Assert.assertThrows(
                IllegalArgumentException.class,
                () -> NetnsLab.design(ConfigFactory.parseString("netns-lab.embedded.design = kernel-4.18")));
        assertTrue(
                bare.getMessage(),
                bare.getMessage().startsWith("netns-lab.designs and netns-lab.model: missing from the configuration"));
    }

    /**
     * The configuration's designs and model get the checks {@code run --config} gives a file: a design of
     * reference.conf redefined, a name that cannot name actors, a fault switch in a design and a strategy value no
     * strategy reads are refused, each named, whether or not the embedded design is the one at fault.
     */
    @Test
    public void aDesignTheCommandLineRefusesIsRefused() {
        for (String[] c : new String[][] {
            {
                "netns-lab.designs.\"kernel-4.18\".uevent.serialization = lockless",
                "redefines the named design 'kernel-4.18' of reference.conf; give your design its own name"
            },
            {"netns-lab.designs.\"bad name!\".uevent.serialization = lockless", "a design name must be 1-100 letters"},
            {
                "netns-lab.designs.mine.faults.listener = 2",
                "netns-lab.designs.mine.faults: fault switches are not a" + " design's"
            },
            {"netns-lab.model.uevent.serialization = lockfree", "netns-lab.model.uevent.serialization: unknown"},
            {"netns-lab.designs.mine2 = 5", "netns-lab.designs.mine2: must be an object of model keys"}
        }) {
            IllegalArgumentException e = org.junit.Assert.assertThrows(
                    c[0],
                    IllegalArgumentException.class,
                    () -> NetnsLab.design(ConfigFactory.parseString(c[0]).withFallback(config())));
            assertTrue(e.getMessage(), e.getMessage().contains(c[1]));
        }
        // a design of the application's own, sound, is taken, and reference.conf's as they are
        assertEquals(
                "mine",
                NetnsLab.design(ConfigFactory.parseString("netns-lab.designs.mine.uevent.serialization = lockless\n"
                                        + "netns-lab.embedded.design = mine")
                                .withFallback(config()))
                        .name());
        com.typesafe.config.ConfigException.WrongType list = org.junit.Assert.assertThrows(
                com.typesafe.config.ConfigException.WrongType.class,
                () -> NetnsLab.design(ConfigFactory.parseString("netns-lab.embedded.design = [a]")
                        .withFallback(config())));
        assertTrue(
                list.getMessage(),
                list.getMessage()
                        .endsWith("netns-lab.embedded.design has type LIST rather than STRING (a design's name)"));
    }

    /** A socket sized for one message gets SOCK_MIN_RCVBUF, not rmem_default (what a 0 would mean). */
    @Test
    public void aSocketHoldingOneMessageGetsTheSmallestBuffer() {
        assertEquals(SocketOptions.SOCK_MIN_RCVBUF, SocketOptions.holding(1).skRcvbuf(NetlinkSettings.KERNEL));
        assertEquals(1, SocketOptions.holding(1).rcvbuf());
    }

    /** What a caller logs of a received event reads as text: the type by name, the message's bytes as text. */
    @Test
    public void receivedEventsPrintReadably() {
        org.netnslab.proc.ProcEvent exit =
                new org.netnslab.proc.ProcEvent(org.netnslab.proc.ProcEvents.EXIT, 1, 7, 100, 42, 42, 0, 256, 17);
        assertEquals(
                "ProcEvent[what=EXIT, cpu=1, seq=7, timestampNanos=100, pid=42, tgid=42, parentPid=0, exitCode=256,"
                        + " exitSignal=17]",
                exit.toString());
        assertEquals("0x3", org.netnslab.proc.ProcEvents.name(3));
        assertEquals("NONE", org.netnslab.proc.ProcEvents.name(0));
        org.netnslab.uevent.Uevent u = new org.netnslab.uevent.Uevent(
                "add@/devices/virtual/net/veth0\0ACTION=add\0SEQNUM=1\0"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                new org.netnslab.uevent.Audience(org.netnslab.uevent.Audience.Kind.values()[0], 1),
                5);
        assertTrue(
                u.toString(),
                u.toString()
                        .startsWith("Uevent[wire=\"add@/devices/virtual/net/veth0 ACTION=add SEQNUM=1\", audience="));
    }
}
