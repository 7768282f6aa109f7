package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import akka.stream.Materializer;
import akka.stream.javadsl.Sink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.netnslab.machine.Clock;
import org.netnslab.machine.EngineFixture;
import org.netnslab.machine.Machine;
import org.netnslab.machine.MachineSettings;
import org.netnslab.machine.Mutex;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.uevent.Enobufs;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.SeqnumCounter;
import org.netnslab.uevent.Uevent;
import org.netnslab.uevent.UeventCosts;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSocket;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The window between a send's SEQNUM bump and its broadcast in virtual time ({@link UeventRoute.VirtualPath}),
 * with every time exact: 4 FIFO CPUs, no jitter, a 2 us mutex hand-off. Two senders into one netns: an
 * injector whose copy takes 10 us (send-outside 3 us) and a device task sending a tagged kernel uevent whose
 * copy takes 1 us (send-outside 5 us). The injector bumps at 3 us and broadcasts at 13 us; the device task
 * bumps at 5 us.
 */
public class SeqnumWindowTest extends JUnitSuite {
    private static final long HANDOFF = 2_000;
    private static final byte[] PAYLOAD =
            "change@/devices/virtual/net/lo\0ACTION=change\0".getBytes(StandardCharsets.US_ASCII);
    private static final UeventCosts INJECTION = new UeventCosts(3_000, 10_000, 0, 0, 1_000, 0);
    private static final UeventCosts TAGGED = new UeventCosts(5_000, 1_000, 0, 0, 1_000, 0);

    private EngineFixture fixture;
    private ActorContext<Runnable> guardian;
    private Materializer materializer;

    @Before
    public void setUp() {
        fixture = new EngineFixture(
                "seqnum-window",
                ctx -> {
                    guardian = ctx;
                    materializer = Materializer.createMaterializer(ctx);
                },
                new MachineSettings(4, 0, 1),
                HANDOFF);
    }

    @After
    public void tearDown() throws Exception {
        fixture.terminate();
    }

    /**
     * Sends one injection and one tagged uevent into one netns at time 0 and runs the engine for 100 us.
     *
     * @return what its listener received: {SEQNUM, receipt time in ns from the start} each, in order
     */
    private List<long[]> sendBoth(
            SeqnumCounter counter, Function<Machine, Mutex> injectionLock, Function<Machine, Mutex> taggedLock)
            throws Exception {
        UserNamespace userns = UserNamespace.INIT.createChild(1, 1000);
        UeventSocket socket = new UeventSocket(1, userns, counter);
        UeventRoute live = (sender, payload, sentNanos, replyTo) -> {
            throw new AssertionError("a virtual send never takes the live route");
        };
        Injector.Target injection = new Injector.Target(
                0,
                UeventRoute.charged(live, UeventRoute.VirtualPath.injection(socket, injectionLock, INJECTION)),
                Credentials.root(userns, 1000),
                true,
                0,
                1);
        Injector.Target tagged = new Injector.Target(
                0,
                UeventRoute.charged(
                        live,
                        new UeventRoute.VirtualPath(
                                socket,
                                taggedLock,
                                (sender, payload, sentNanos) ->
                                        socket.prepareTagged("change", "/devices/virtual/net/veth0", "net", Map.of()),
                                TAGGED)),
                null,
                true,
                0,
                1);
        List<long[]> seen = new ArrayList<>();
        long start = fixture.engine.now();
        fixture.system.tell(() -> {
            ReceiveQueue<Received> queue = new ReceiveQueue<>(SocketOptions.DEFAULT, Enobufs::new);
            queue.bind(NetlinkSettings.KERNEL);
            socket.attach(queue);
            queue.source()
                    .runWith(
                            Sink.foreach(r -> seen.add(new long[] {((Uevent) r).seqnum(), Clock.nanoTime() - start})),
                            materializer);
            for (Injector.Target t : List.of(injection, tagged)) {
                ActorRef<Injector.Command> sender = guardian.spawnAnonymous(
                        Injector.create(List.of(t), PAYLOAD, 1, done -> {}, new LongAdder(), new StripedRecorder()));
                sender.tell(new Injector.Start(Injector.Phase.COUNTED));
            }
        });
        fixture.runFor(100_000);
        assertEquals("both bumped the one counter", 2, counter.last());
        return seen;
    }

    private static List<String> text(List<long[]> seen) {
        return seen.stream().map(s -> "SEQNUM " + s[0] + " at " + s[1] + " ns").toList();
    }

    /**
     * The 2018 patch as posted: the injection under the netns's own mutex, the tagged uevent under
     * uevent_sock_mutex, one plain counter. The device task bumps 2 at 5 us, inside the injector's window (1 at
     * 3 us), and broadcasts at 6 us; the injector's 1 follows at 13 us: out of order.
     */
    @Test
    public void twoLocksLetALaterBumpBroadcastFirst() throws Exception {
        Mutex own = fixture.machine.newMutex("uevent_sock_mutex of netns 1");
        List<long[]> seen = sendBoth(SeqnumCounter.underTwoLocks(), m -> own, UeventRoute.globalLock());
        assertEquals(List.of("SEQNUM 2 at 6000 ns", "SEQNUM 1 at 13000 ns"), text(seen));
    }

    /**
     * v6.9: atomic64_inc_return and no lock on either path: the same interleaving, the same order as two
     * locks give.
     */
    @Test
    public void noLockLetsALaterBumpBroadcastFirst() throws Exception {
        List<long[]> seen = sendBoth(new SeqnumCounter(), m -> null, m -> null);
        assertEquals(List.of("SEQNUM 2 at 6000 ns", "SEQNUM 1 at 13000 ns"), text(seen));
    }

    /**
     * One lock for both (the corrected patch, or uevent_sock_mutex before v6.9): the device task asks for the
     * lock at 5 us and sleeps; the injector broadcasts 1 at 13 us and unlocks, and the device task, handed the
     * lock 2 us later, only then bumps: 2 is broadcast at 16 us, in order.
     */
    @Test
    public void oneLockKeepsTheBumpAndTheBroadcastTogether() throws Exception {
        List<long[]> seen = sendBoth(SeqnumCounter.underTwoLocks(), UeventRoute.globalLock(), UeventRoute.globalLock());
        assertEquals(List.of("SEQNUM 1 at 13000 ns", "SEQNUM 2 at 16000 ns"), text(seen));
    }
}
