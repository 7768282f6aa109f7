package org.netnslab.workload.injection;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;
import org.netnslab.uevent.UeventCosts;
import org.netnslab.uevent.UeventSocket;

/**
 * The receiving listeners' share of one virtual send ({@link Injector}): each bound listener's recvmsg of the
 * broadcast message (netlink_recvmsg, net/netlink/af_netlink.c) and its handling in user space, charged on the
 * listener's own task, where they compete with the senders for the CPUs.
 */
final class ListenerReceives {
    private static final Runnable NOTHING = () -> {};

    private ListenerReceives() {}

    /**
     * Charges each listener of {@code socket} its receive. Fair ({@code sender} not null): the listener's task runs
     * {@code costs.uevent.recv} (kernel; more after walks that evicted the message, {@link UeventCosts#recvAfterWalk})
     * then {@code listener-user} (user space). Fifo: one {@code recv} step per listener.
     *
     * @param machine the simulated machine
     * @param sender the sending task, or null under the fifo machine
     * @param c the route's costs
     * @param socket the socket broadcast on
     * @return how many of the listeners were asleep, so that this send wakes them (fair; 0 under fifo)
     */
    static int charge(Machine machine, CpuTask sender, UeventCosts c, UeventSocket socket) {
        if (sender == null) {
            for (int i = socket.listenerCount(); i > 0; i--) {
                machine.compute(c.recv(), NOTHING);
            }
            return 0;
        }
        int asleep = 0;
        for (int i = socket.listenerCount() - 1; i >= 0; i--) {
            int index = i;
            CpuTask listener = task(machine, socket.listener(i), socket.netnsId(), index);
            if (machine.cpus().asleep(listener)) {
                asleep++;
            }
            long user = c.listenerUser();
            Runnable then = user == 0 ? NOTHING : () -> machine.compute(listener, Step.USER, user, NOTHING);
            if (c.recvEvicted() == 0) {
                machine.compute(listener, Step.KERNEL, c.recv(), then);
            } else { // what the walks until the receive starts evict of this message (at most the sockets bound)
                int bound = socket.mcList().bound();
                machine.computeAfterWalks(listener, Step.KERNEL, c.recv(), w -> c.recvAfterWalk(bound, w), then);
            }
        }
        return asleep;
    }

    /** A bound listener: its receive queue (its task's key), its netns and its place among that netns's listeners. */
    record Bound(Object queue, long netnsId, int index) {}

    /**
     * The load's end as the calibrate probe makes it: closing the stop pipe every listener polls beside its socket
     * wakes each one (pipe_release -> wake_up_interruptible_sync_poll, fs/pipe.c), which returns from poll, polls
     * once more and leaves its loop: {@code costs.uevent.listener-stop} on its own task, after the switch-in the
     * machine charges a task woken from its sleep. Call from outside the engine, which runs it at its next run, in
     * the listeners' order.
     *
     * @param machine the simulated machine (virtual, fair scheduler)
     * @param listeners every listener bound, in binding order
     * @param stopNanos {@code costs.uevent.listener-stop}, ns
     * @return completes when every listener has run its last wake-up
     */
    static CompletableFuture<Void> stop(Machine machine, List<Bound> listeners, long stopNanos) {
        CompletableFuture<?>[] done = new CompletableFuture<?>[listeners.size()];
        for (int i = 0; i < done.length; i++) {
            Bound b = listeners.get(i);
            CompletableFuture<Void> f = new CompletableFuture<>();
            done[i] = f;
            machine.engine()
                    .execute(() -> machine.compute(
                            task(machine, b.queue(), b.netnsId(), b.index()),
                            Step.KERNEL,
                            stopNanos,
                            () -> f.complete(null)));
        }
        return CompletableFuture.allOf(done);
    }

    private static CpuTask task(Machine machine, Object queue, long netnsId, int index) {
        return machine.taskFor(queue, () -> "uevent-listener-" + netnsId + "-" + index, CpuTask.Kind.LISTENER);
    }
}
