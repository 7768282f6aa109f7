package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.LoggingTestKit;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The creating process's reference is dropped once: a second release, through the client or the supervisor, never
 * takes the reference an open socket holds (the netns lives until the socket closes).
 */
public class ReleaseNetnsTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final UserNamespace USERNS = UserNamespace.INIT.createChild(1, 1000);

    private static NetnsLab.Client client(ActorRef<NamespaceSupervisor.Command> supervisor) {
        return NetnsLab.client(testKit.system(), supervisor, Duration.ofSeconds(5));
    }

    private static ActorRef<NamespaceSupervisor.Command> supervisor() {
        return testKit.spawn(NetnsLab.supervisor(testKit.system().settings().config()));
    }

    /** @return the stage's value, waited for at most 5 s */
    private static <T> T got(java.util.concurrent.CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    /** @return the warning of a netns that refuses its creator's second put_net */
    private static String refusedPut(long id) {
        return "netns " + id + ": its creating process's reference was dropped already; this put_net is refused";
    }

    @Test
    public void aSecondReleaseThroughTheClientFailsAndTheSocketKeepsItsNetns() throws Exception {
        ActorRef<NamespaceSupervisor.Command> supervisor = supervisor();
        NetnsLab.Client lab = client(supervisor);
        NetnsHandle netns = got(lab.createNetns(USERNS));
        long socket = got(lab.openSocket(netns));

        CompletableFuture<Done> first = lab.releaseNetns(netns.id()).toCompletableFuture();
        ExecutionException second =
                org.junit.Assert.assertThrows(ExecutionException.class, () -> got(lab.releaseNetns(netns.id())));
        assertEquals(IllegalStateException.class, second.getCause().getClass());
        assertEquals(
                "netns " + netns.id() + ": released already; the creator's reference is dropped once (that release"
                        + " completes at net_free, when its sockets and listeners are closed)",
                second.getCause().getMessage());

        assertFalse(first.isDone());
        assertFalse(netns.isFreed());
        got(lab.closeSocket(netns, socket)); // the netns is still there
        assertEquals(Done.getInstance(), first.get(5, TimeUnit.SECONDS)); // its last reference: net_free
        assertTrue(netns.isFreed());
    }

    /** @return the netns's sock_inuse, as /proc/net/sockstat reads it */
    private int sockInuse(NetnsHandle netns) {
        TestProbe<Integer> inuse = testKit.createTestProbe();
        netns.actor().tell(new org.netnslab.netns.NetNamespace.ReadSockInuse(inuse.ref()));
        return inuse.receiveMessage();
    }

    /**
     * A close of a socket that is not open in the netns (never opened there, or closed already) fails naming it and
     * changes nothing: sock_inuse and the netns's references stay as they were.
     */
    @Test
    public void aCloseOfASocketNotOpenFailsAndChangesNothing() throws Exception {
        NetnsLab.Client lab = client(supervisor());
        NetnsHandle netns = got(lab.createNetns(USERNS));
        long socket = got(lab.openSocket(netns));
        ExecutionException never =
                org.junit.Assert.assertThrows(ExecutionException.class, () -> got(lab.closeSocket(netns, socket + 1)));
        assertEquals(
                akka.pattern.StatusReply.ErrorMessage.class, never.getCause().getClass());
        assertEquals(
                "netns " + netns.id() + ": socket " + (socket + 1) + " is not open in it (never opened there, or closed"
                        + " already); nothing was closed",
                never.getCause().getMessage());
        assertEquals(3, sockInuse(netns)); // the netns's 2 kernel sockets and the one opened

        got(lab.closeSocket(netns, socket));
        ExecutionException twice =
                org.junit.Assert.assertThrows(ExecutionException.class, () -> got(lab.closeSocket(netns, socket)));
        assertEquals(
                "netns " + netns.id() + ": socket " + socket + " is not open in it (never opened there, or closed"
                        + " already); nothing was closed",
                twice.getCause().getMessage());
        assertEquals(2, sockInuse(netns));
        assertEquals(Done.getInstance(), got(lab.releaseNetns(netns)));
        assertTrue(netns.isFreed());
    }

    @Test
    public void aSecondReleaseThroughTheSupervisorIsRefusedByTheNetns() throws Exception {
        ActorRef<NamespaceSupervisor.Command> supervisor = supervisor();
        NetnsLab.Client lab = client(supervisor);
        NetnsHandle netns = got(lab.createNetns(USERNS));
        long socket = got(lab.openSocket(netns));

        TestProbe<Done> first = testKit.createTestProbe();
        TestProbe<Done> second = testKit.createTestProbe();
        LoggingTestKit.warn(refusedPut(netns.id())).expect(testKit.system(), () -> {
            supervisor.tell(new NamespaceSupervisor.ReleaseNetns(netns.id(), first.ref()));
            supervisor.tell(new NamespaceSupervisor.ReleaseNetns(netns.id(), second.ref()));
            return null;
        });
        assertFalse(netns.isFreed());

        got(lab.closeSocket(netns, socket));
        first.expectMessage(Done.getInstance());
        second.expectMessage(Done.getInstance()); // both wait for net_free
        assertTrue(netns.isFreed());
    }

    @Test
    public void releaseAllAfterOneReleaseLeavesTheSocketsReference() throws Exception {
        ActorRef<NamespaceSupervisor.Command> supervisor = supervisor();
        NetnsLab.Client lab = client(supervisor);
        NetnsHandle held = got(lab.createNetns(USERNS));
        NetnsHandle other = got(lab.createNetns(USERNS));
        long socket = got(lab.openSocket(held));
        CompletableFuture<Done> released = lab.releaseNetns(held.id()).toCompletableFuture();

        TestProbe<Done> all = testKit.createTestProbe();
        LoggingTestKit.warn(refusedPut(held.id())).expect(testKit.system(), () -> {
            supervisor.tell(new NamespaceSupervisor.ReleaseAll(all.ref()));
            return null;
        });
        assertEquals(Done.getInstance(), got(lab.releaseNetns(other.id())));
        assertTrue(other.isFreed()); // ReleaseAll dropped its creator's reference: net_free
        assertFalse(held.isFreed());

        got(lab.closeSocket(held, socket));
        assertEquals(Done.getInstance(), released.get(5, TimeUnit.SECONDS));
        all.expectMessage(Done.getInstance());
        assertTrue(held.isFreed());
    }
}
