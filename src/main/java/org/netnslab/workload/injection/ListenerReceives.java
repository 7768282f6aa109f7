package org.netnslab.workload.injection;

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
            CpuTask listener = machine.taskFor(
                    socket.listener(i),
                    () -> "uevent-listener-" + socket.netnsId() + "-" + index,
                    CpuTask.Kind.LISTENER);
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
}
