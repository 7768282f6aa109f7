package org.netnslab.uevent;

import static org.junit.Assert.assertEquals;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.stream.javadsl.Sink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netlink.NetlinkSettings;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The two halves of a uevent send, interleaved by hand: what a lockless sender allows and a lock
 * forbids.
 */
public class UeventSocketInterleavingTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    private static final byte[] PAYLOAD =
            "change@/devices/virtual/net/lo\0ACTION=change\0".getBytes(StandardCharsets.US_ASCII);

    private static List<Long> received(UeventSocket socket, Runnable sends) throws Exception {
        ReceiveQueue<Received> queue = new ReceiveQueue<>(SocketOptions.DEFAULT, Enobufs::new);
        queue.bind(NetlinkSettings.KERNEL);
        socket.attach(queue);
        sends.run();
        assertEquals(0, socket.close());
        List<Long> seqnums = new ArrayList<>();
        for (Received r : queue.source()
                .runWith(Sink.seq(), testKit.system())
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS)) {
            seqnums.add(((Uevent) r).seqnum());
        }
        return seqnums;
    }

    /**
     * v6.9 uevent_net_broadcast (lib/kobject_uevent.c): atomic64_inc_return(&uevent_seqnum), then
     * skb_copy_expand, then netlink_broadcast, no lock held. Task A takes 1, task B takes 2 and
     * broadcasts first: the listener sees 2 then 1. Under uevent_sock_mutex (v4.18..v6.8) the owner
     * runs both halves of one send before the next send's first: 1 then 2.
     */
    @Test
    public void locklessHalvesInterleaveAndALockKeepsThemTogether() throws Exception {
        UserNamespace userns = UserNamespace.INIT.createChild(1, 1000);
        Credentials root = Credentials.root(userns, 1000);
        SeqnumCounter global = new SeqnumCounter();
        UeventSocket lockless = new UeventSocket(7, userns, global);
        List<Long> seen = received(lockless, () -> {
            UeventSocket.Ready a = (UeventSocket.Ready) lockless.prepareInject(root, PAYLOAD, 0);
            UeventSocket.Ready b = (UeventSocket.Ready)
                    lockless.prepareTagged("change", "/devices/virtual/net/veth0", "net", Map.of());
            lockless.send(b);
            lockless.send(a);
        });
        assertEquals(List.of(2L, 1L), seen);

        UeventSocket locked = new UeventSocket(8, userns, new SeqnumCounter());
        assertEquals(List.of(1L, 2L), received(locked, () -> {
            locked.inject(root, PAYLOAD, 0); // what the owner actor runs per message: both halves at once
            locked.tagged("change", "/devices/virtual/net/veth0", "net", Map.of());
        }));
    }
}
