package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.userns.Capability;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * An embedding application's bad arguments are refused where they are made, before they reach an actor the whole
 * instance shares (the global uevent owner, the proc connector), which a bad message would stop for every caller.
 */
public class EmbeddedArgumentsTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static <T extends Throwable> T thrown(Class<T> type, org.junit.function.ThrowingRunnable r) {
        return org.junit.Assert.assertThrows(type, r);
    }

    @Test
    public void credentialsAndUserNamespacesRefuseWhatTheKernelCannotHave() {
        assertEquals(
                "Credentials: userNs is null (UserNamespace.INIT for the initial one)",
                thrown(NullPointerException.class, () -> Credentials.root(null, 0))
                        .getMessage());
        assertEquals(
                "Credentials: effective is null (an empty set for no capability)",
                thrown(NullPointerException.class, () -> new Credentials(0, UserNamespace.INIT, null))
                        .getMessage());
        assertEquals(
                "Credentials: euid must be a kuid in 0..4294967294, got -1",
                thrown(IllegalArgumentException.class, () -> Credentials.root(UserNamespace.INIT, -1))
                        .getMessage());
        assertEquals(
                "user namespace 0: a child's id must be above 0 (0 is the initial user namespace's, and a namespace is"
                        + " known by its id)",
                thrown(IllegalArgumentException.class, () -> UserNamespace.INIT.createChild(0, 5000))
                        .getMessage());
        thrown(IllegalArgumentException.class, () -> UserNamespace.INIT.createChild(-7, 1000));
        assertEquals(
                "user namespace 3: ownerKuid must be a kuid in 0..4294967294, got 4294967295",
                thrown(IllegalArgumentException.class, () -> UserNamespace.INIT.createChild(3, 4294967295L))
                        .getMessage());
        // two namespaces given one id by different creators are not one namespace
        UserNamespace a = UserNamespace.INIT.createChild(9, 1000);
        assertNotEquals(a, UserNamespace.INIT.createChild(9, 2000));
        assertEquals(a, UserNamespace.INIT.createChild(9, 1000));
        assertNotEquals(a, a.createChild(9, 1000)); // its child of the same id is one level down
        // equal ids below parents of other owners: not one namespace (the whole chain is compared)
        UserNamespace b = UserNamespace.INIT.createChild(1, 2000);
        assertNotEquals(UserNamespace.INIT.createChild(1, 1000).createChild(5, 1000), b.createChild(5, 1000));
        assertEquals(
                "user namespace 42: one without a parent is init_user_ns (id 0, owner 0): use UserNamespace.INIT, and"
                        + " createChild for the others",
                thrown(IllegalArgumentException.class, () -> new UserNamespace(42, null, 0, 0))
                        .getMessage());
        UserNamespace deep = UserNamespace.INIT;
        for (int level = 1; level <= UserNamespace.MAX_LEVEL; level++) {
            deep = deep.createChild(level, 1000); // level 33 is the kernel's deepest
        }
        UserNamespace deepest = deep;
        assertEquals(
                "user namespace 34: level 34 is past 33: create_user_ns refuses a child of a namespace at level 33"
                        + " (ENOSPC)",
                thrown(IllegalArgumentException.class, () -> deepest.createChild(34, 1000))
                        .getMessage());
        assertEquals(
                EnumSet.allOf(Capability.class),
                Credentials.root(a, 1000).effective()); // a valid one is made as before
    }

    @Test
    public void aProcEventIsOneTypeWithIdsOfZeroOrMore() {
        assertEquals(
                "ProcEvent: what 0xffffffff is not one PROC_EVENT_* type (FORK, EXEC, UID, GID, SID, PTRACE, COMM,"
                        + " COREDUMP, EXIT)",
                thrown(IllegalArgumentException.class, () -> new ProcEvent(-1, 0, 0, 0, 5, 5, 0, 0, 0))
                        .getMessage());
        thrown(IllegalArgumentException.class, () -> new ProcEvent(ProcEvents.NONZERO_EXIT, 0, 0, 0, 5, 5, 0, 0, 0));
        assertEquals(
                "ProcEvent: cpu, seq, pid, tgid and parentPid must be 0 or more, got cpu -5, seq 0, pid 5, tgid 5,"
                        + " parentPid 0",
                thrown(IllegalArgumentException.class, () -> new ProcEvent(ProcEvents.EXIT, -5, 0, 0, 5, 5, 0, 0, 0))
                        .getMessage());
        assertEquals(ProcEvents.EXIT, new ProcEvent(ProcEvents.EXIT, 1, 0, 0, 5, 5, 0, 256, 17).what());
    }

    @Test
    public void aTimeoutAkkaCannotScheduleOrANullConfigIsRefusedAtStart() {
        Duration longest = org.netnslab.settings.HoconDurations.schedulerLongestDelay(
                testKit.system().settings().config());
        assertEquals(
                String.format(
                        "netns-lab: the request timeout must be at most %s (%.1f days, the longest delay Akka's"
                                + " scheduler takes at its akka.scheduler.tick-duration), got PT7200H: every request"
                                + " would fail",
                        longest, longest.getSeconds() / 86400.0),
                thrown(
                                IllegalArgumentException.class,
                                () -> NetnsLab.start(
                                        testKit.system(),
                                        testKit.system().settings().config(),
                                        Duration.ofDays(300)))
                        .getMessage());
        thrown(
                IllegalArgumentException.class,
                () -> NetnsLab.start(
                        testKit.system(), testKit.system().settings().config(), Duration.ofSeconds(Long.MAX_VALUE)));
        assertEquals(
                "netns-lab: config is null (system.settings().config() has netns-lab's)",
                thrown(NullPointerException.class, () -> NetnsLab.start(testKit.system(), null, TIMEOUT))
                        .getMessage());
    }

    /** A null subscriber fails its own call; the connector lives on and serves the next one. */
    @Test
    public void aNullProcSubscriberOrEventFailsItsCallAndTheConnectorServesTheNext() throws Exception {
        NetnsLab.Instance lab =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), TIMEOUT);
        try {
            NetnsLab.Client c = lab.client();
            Throwable e = NetnsLabStopTest.failure(c.procEvents(null, null, 8));
            assertEquals(NullPointerException.class, e.getClass());
            assertEquals("procEvents: caller is null", e.getMessage());
            assertEquals(
                    "publishProcEvent: event is null",
                    thrown(NullPointerException.class, () -> c.publishProcEvent(null))
                            .getMessage());
            assertNotNull(c.procEvents(Credentials.root(UserNamespace.INIT, 0), null, 8)
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS));
        } finally {
            lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** inject, openSocket, closeSocket and uevents refuse another instance's handle as releaseNetns does. */
    @Test
    public void anotherInstancesHandleIsRefusedByEveryNetnsOperation() throws Exception {
        NetnsLab.Instance a =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), TIMEOUT);
        NetnsLab.Instance b =
                NetnsLab.start(testKit.system(), testKit.system().settings().config(), TIMEOUT);
        try {
            NetnsHandle nb = b.client()
                    .createNetns(UserNamespace.INIT)
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            String expected = "netns 1 of this handle (actor " + nb.actor().path() + ") is not the netns 1 of "
                    + a.name() + ": use the client of the instance that created it";
            NetnsLab.Client c = a.client();
            for (Throwable e : new Throwable[] {
                NetnsLabStopTest.failure(c.inject(nb, Credentials.root(UserNamespace.INIT, 0), "add@/x\0".getBytes())),
                NetnsLabStopTest.failure(c.openSocket(nb)),
                NetnsLabStopTest.failure(c.closeSocket(nb, 1)),
                NetnsLabStopTest.failure(
                        c.uevents(nb, 8).to(akka.stream.javadsl.Sink.ignore()).run(testKit.system()))
            }) {
                assertEquals(IllegalArgumentException.class, e.getClass());
                assertEquals(expected, e.getMessage());
            }
            assertEquals(
                    Long.valueOf(1),
                    b.client().openSocket(nb).toCompletableFuture().get(10, TimeUnit.SECONDS));
        } finally {
            a.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
            b.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
